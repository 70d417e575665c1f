import { anyOrder, type PatternRow, type PatternTable } from '../categories.js';

/**
 * English patterns. Rows are compact patterns (`(a|b|)` groups, see `expandAlternatives`) with a
 * weight in [0, 1]. A pair counts with the product of its verb's and its target's weights, so a
 * strong verb next to a weak target ("ignore the rules") stays below the suspicious threshold,
 * while "ignore all previous instructions" is high risk. A verb of weight 0 is a negated form
 * ("don't forget"): it cancels the verb it contains.
 *
 * Fan-out rule: the lexicon checks every phrase that starts with a word each time the word
 * occurs, so phrases do not start with frequent words (`the`, `all`, `your`, `is`) except in
 * small families; determiners are left out of targets (the pairing tolerates the words between
 * a verb and its target).
 */

const INSTRUCTION_NOUNS =
  '(instructions|instruction|directions|directives|directive|rules|guidelines|prompts|prompt|' +
  'commands|orders|constraints|restrictions|programming|guidance|policies|policy|training|' +
  'limitations|principles|filters|safeguards|guardrails|protocols|parameters|configuration|' +
  'system prompt|system message|system instructions)';

const CONTEXT_NOUNS =
  '(context|messages|message|tasks|task|assignments|assignment|information|input|inputs|text|' +
  'content|requests|request|conversation|conversations|settings|answers|responses|statements|' +
  'data|lines|words|commands|directions|prompts|orders|sentences|paragraphs)';

/** What a user asked, which data may tell the model to drop ("ignore the previous question"). */
const QUESTION_NOUNS = '(question|questions|query|queries)';

const BEFORE =
  '(previous|previously|prior|preceding|above|earlier|former|foregoing|initial|original|old|' +
  'past|existing|system|developer|default|preset|pre-set|built-in|hidden|underlying|' +
  'aforementioned)';

const AI = '(ai|assistant|ai assistant|llm|language model|chatbot|agent|model|ai model|ai system)';

/** Rows taken literally: chat-template tokens contain the `|` of the pattern syntax. */
function literal(tokens: readonly string[], weight: number): PatternRow[] {
  return tokens.map((token) => [token, weight, 'literal'] as const);
}

const NOT = "(do not|don't|dont|never|no longer)";

export const ENGLISH: PatternTable = {
  'override.verb': [
    ['(ignore|ignores|ignored|ignoring|disregard|disregards|disregarded|disregarding)', 1],
    ['(forget|forgets|forgot|forgotten|forgetting|override|overrides|overriding|overridden)', 1],
    ['(overwrite|overwriting)', 0.9],
    [`${NOT} (follow|obey|listen to|comply with|adhere to|abide by)`, 1],
    ['stop (following|obeying|listening to|adhering to|heeding|using)', 1],
    ['pay no (attention|heed|mind) to', 1],
    ['(set|put|push|throw|cast|leave|lay) (aside|behind)', 0.8],
    ['(leave|lay|put)', 0.55],
    ['(bypass|bypassing|circumvent|circumventing|evade|evading|get around|work around)', 0.85],
    ['(skip|skipping|drop|dropping|discard|discarding|abandon|abandoning|ditch|dismiss)', 0.8],
    ['(neglect|neglecting|overlook|overlooking|scrap|toss out|throw out|throw away)', 0.8],
    ['(cancel|nullify|void|invalidate|revoke|rescind|suspend|deactivate|disable|turn off)', 0.75],
    ['(remove|clear|erase|delete|wipe|reset|flush|purge|unlearn)', 0.7],
    ['(get rid of|put out of your (mind|head)|out of your (head|mind))', 0.8],
    ['(never mind|nevermind)', 0.6],
    // Passive forms, which follow their target: "all previous instructions are now void".
    ...anyOrder([
      [
        '(void|null and void|nullified|revoked|obsolete|superseded|no longer valid|no longer in effect|no longer apply|no longer applies|irrelevant|outdated|out of date|out-of-date)',
        0.85,
      ],
    ]),
  ],
  'override.noun': [
    [INSTRUCTION_NOUNS, 1],
    [CONTEXT_NOUNS, 0.75],
    [QUESTION_NOUNS, 0.55],
    ['(ethics|morals|values|one|ones)', 0.75],
  ],
  'override.scope': [
    // The writer's own words: a user may take back their own instructions.
    ['(my|our|mine)', 0],
    [BEFORE, 1],
    ['(all|your|these|those|every|both)', 0.9],
    ['any', 0.85],
    ['(safety|content|ethical|moral|usage|openai|anthropic|censorship)', 0.85],
    ['(given|provided|received|current|other|first)', 0.6],
    // After the noun: "the instructions above", "the rules you were given".
    [
      '(before|before this|so far|until now|up to now|from before|from earlier|given to you|you were given)',
      0.9,
    ],
  ],
  'override.target': [
    [
      "(everything|anything) (above|before|prior|earlier|previously|said|stated|written|mentioned|so far|up to now|until now|before this|before that|that came before|from before|you know|you learned|you have learned|you've learned)",
      0.9,
    ],
    ['all (above|before this|so far)', 0.9],
    [
      "(everything|anything|what) (you were|you've been|you have been) (told|taught|instructed|programmed)",
      0.85,
    ],
    ['(everything|anything|what) i (said|told you)', 0.8],
    ['(the|all the|all of the|everything) above', 0.8],
    [
      "(user's|users') (question|questions|request|requests|query|instructions|prompt|message|input|task|wishes)",
      0.8,
    ],
    [
      '(confidentiality|safety|content|security|privacy) (rule|rules|policy|policies|guidelines|settings|filter|filters|restrictions)',
      0.8,
    ],
    [
      '(everything|all of this|this conversation|our conversation|your memory|your context|your context window)',
      0.55,
    ],
  ],
  'override.phrase': [
    ['(instructions|rules|guidelines|restrictions|policies|filters) no longer apply', 0.8],
    [
      '(updated|revised|real|actual|true|overriding|priority|secret|hidden|additional) (instructions|instruction|rules|directives|system prompt|orders):',
      0.5,
    ],
    ['(begin|start) over with (new|these) instructions', 0.7],
  ],
  'reveal.verb': [
    ['(repeat|print|output|reveal|disclose|leak|dump|recite|echo|regurgitate|expose|divulge)', 1],
    [
      '(print out|write out|type out|spell out|read out|read back|show me|tell me|give me|display|show)',
      1,
    ],
    ['(write down|copy|paste|list|return|state|share|send me|provide|give|spell)', 0.75],
    ['(include|append|insert|attach|leak)', 0.7],
    [
      '(summarize|summarise|translate|explain|describe|paraphrase|rewrite|encode|convert|explains|describes|summarizes|summarises|reveals|repeats|prints|shows|outputs|recites)',
      0.65,
    ],
    ['(echo back|repeat back|read back|print back|spit out|tl;dr|tldr|tl dr|tl;dr of)', 0.9],
    ["(what is|what's|what are|what were|what was|whats)", 0.85],
    ['how were you (instructed|programmed|prompted|configured|told)', 0.9],
  ],
  'reveal.noun': [
    [
      '(system prompt|system message|system instructions|pre-prompt|preprompt|metaprompt|meta prompt|prompt text|developer message|developer prompt)',
      1,
    ],
    ['(instructions|prompt|prompts)', 0.9],
    ['(rules|guidelines|directives|configuration|programming|initialization|context window)', 0.8],
  ],
  'reveal.scope': [
    ['your', 1],
    ['the', 0.5],
    // Task instructions, not the model's own: "your instructions for the recipe"; and prompts
    // in general: "how to write a system prompt", "prompt injection".
    ['(my|our|for the|for my|for this|on how|to make)', 0],
    [
      '(a system prompt|a good system prompt|a system message|a prompt|a good prompt|a better prompt|an effective prompt|injection|injections|engineering|template|templates)',
      0,
    ],
    [
      '(initial|original|hidden|secret|underlying|internal|confidential|full|complete|exact|entire|previous|prior|preceding|above|earlier|first)',
      0.95,
    ],
    ['(all|these|those)', 0.75],
    [
      '(so far|above|given|given to you|you were given|before this|you started with|you began with|you received|you were told|you have been given)',
      0.9,
    ],
  ],
  'reveal.target': [
    ['the (system prompt|system message)', 0.9],
    [
      '(text|words|lines|content|sentences|messages) (above|before this|before that|prior to this|preceding this)',
      0.5,
    ],
    ['(everything|all) (above|before this|before that|so far)', 0.55],
    [
      '(written|said|stated|mentioned|typed|given|listed) (above|before this|before that|previously)',
      0.6,
    ],
    ['(the above|all the above|the text above|the prompt above)', 0.55],
    ['(information|text|content) (in|of) (the|your) (prompt|system prompt)', 0.6],
    [
      "(what|everything|anything) (you were|you have been|you've been) (told|instructed|programmed)",
      0.9,
    ],
    // A secret named as one: asked for without a system prompt guarding it, still an attempt.
    ['(secret|hidden|confidential) (password|passcode|key|word|phrase|code|token|value)', 0.7],
  ],
  // Questions that ask for the prompt without a verb-target pair.
  'reveal.phrase': [
    ['what were you (told|instructed|programmed|given)', 0.5],
    ['what did (your developers|your creators|the developers) (tell|instruct|program) you', 0.6],
  ],
  'reveal.modifier': [
    [
      '(verbatim|word for word|word-for-word|letter for letter|character for character|exactly as written|in full|unabridged|unedited|unmodified)',
      0.4,
    ],
    [
      'as (python|python code|pseudocode|pseudo code|a code block|bullet points|json|markdown)',
      0.3,
    ],
    [
      '(start|begin|starting|beginning) (your answer|your response|your reply|with the words|with)',
      0.2,
    ],
    ['(including|include) (everything|all of it|all)', 0.2],
    ['(backwards|in reverse|letter by letter|one letter at a time|with spaces between)', 0.35],
    ['in bytes', 0.3],
    [
      '(above this message|above this line|above this text|before this message|at the top of this conversation|at the beginning of this conversation)',
      0.4,
    ],
  ],
  'exfil.verb': [
    [
      '(send|sends|sending|forward|forwarding|post|posting|upload|uploading|transmit|transmitting)',
      1,
    ],
    ['(exfiltrate|exfiltrating|leak|leaking|smuggle|email|e-mail|mail|transfer|transferring)', 1],
    ['(copy|copying|export|exporting|sync|mirror|relay|redirect|bcc|publish|dump)', 0.75],
    ['(append|appending|embed|embedding|encode|include|including|insert|attach|add)', 0.7],
  ],
  'exfil.target': [
    [
      '(conversation history|chat history|chat log|chat logs|message history|previous messages|personal data|personal information|private data|user data|credentials|password|passwords|api key|api keys|access token|access tokens|session token|secrets|cookies|contacts|private key|ssh key|ssh keys|credit card number|bank details|system prompt|environment variables|email address|phone number|home address)',
      1,
    ],
    [
      '(entire conversation|whole conversation|full conversation|this conversation|our conversation)',
      0.9,
    ],
  ],
  // Data named by a noun; how much it weighs depends on its scope ("all of the user's emails").
  'exfil.noun': [
    [
      '(inbox|mailbox|address book|database|databases|keys|tokens|session cookies|ssh|wallet|seed phrase|customer data|customer database|customer list|employee records)',
      1,
    ],
    [
      '(emails|e-mails|mails|messages|files|documents|document|records|data|history|logs|chat|chats|transcript|transcripts|contents|notes|attachments|conversation|conversations|photos|calendar|memory|context)',
      0.75,
    ],
  ],
  'exfil.scope': [
    [
      "(user's|users'|customer's|customers'|client's|clients'|victim's|his|her|their|the user|the customer|of the user|of the customer|of the user's|of the users)",
      1,
    ],
    ['(all|every|entire|whole|full|complete|any|all of the|all the)', 1],
    ['your', 0.85],
    ['(these|those|internal|private|confidential|sensitive|stored|saved)', 0.7],
    ['the', 0.5],
    ['(this|that)', 0.45],
  ],
  // A destination weighs at least 0.45 (DESTINATION_MIN in the analyzer); covering words less.
  'exfil.destination': [
    ['(http|https|www|url|webhook|endpoint|server|attacker|pastebin|ngrok)', 0.6],
    ['(query parameter|query string|image url|markdown image)', 0.5],
    [
      '(dropbox|google drive|onedrive|requestbin|s3 bucket|discord|telegram|ftp|sftp|external server|remote server)',
      0.5,
    ],
    [
      '(personal|private|external|outside|third-party|backup) (email|e-mail|account|address|server|drive|storage|inbox|dropbox|mailbox)',
      0.5,
    ],
    [
      // Few forms per leading word pair: "to the" opens every other clause (fan-out rule).
      '(to|at) (this|the following) (address|email|url|link|server|endpoint|webhook|account)',
      0.45,
    ],
    // Covering the tracks: "before replying", "then delete the sent message".
    [
      "(before replying|before answering|before responding|prior to replying|continue as normal|then delete|and delete the|delete the sent|without telling|without informing|don't tell|do not tell|do not mention)",
      0.3,
    ],
  ],
  persona: [
    [
      "(you are now|you're now|now you are|you are no longer|you are going to act|you are going to pretend)",
      0.3,
    ],
    ['from now on(,|) you', 0.3],
    ['from now on', 0.2],
    ['(henceforth|hereafter) (known|called|referred to|named) as', 0.35],
    ['(known|referred to) as', 0.1],
    [
      '(act|acting|behave|behaving|respond|responding|answer|answering|reply|replying|speak|speaking|talk|talking) (as|like) (a|an|if you were|if you are|though you were)',
      0.15,
    ],
    ['(act as|acting as)', 0.12],
    ["(pretend|pretending) (to be|you are|you're|that you are|that you're|to have|you have)", 0.25],
    ['(role-play|roleplay|role play) as', 0.2],
    ['(play|take on|assume|adopt|embody) the (role|part|persona|identity|character) of', 0.2],
    ['immerse yourself (into|in) the role', 0.35],
    ['i want you to (act|pretend|play|roleplay|role-play|simulate|become)', 0.15],
    [
      '(simulate|simulating|emulate|emulating) (a|an|being|the) (ai|chatbot|assistant|model|language model|computer|machine|terminal|virtual machine)',
      0.25,
    ],
    [
      '(stay|remain|keep|stays|remains) (fully |completely |always |)in (character|their roles|their role|your role|the role)',
      0.3,
    ],
    ['without (falling|breaking) out of (character|the role|their role|the figure)', 0.3],
    ["(never|don't|do not|dont) break character", 0.35],
    ['(break|breaking) character', 0.25],
    ["(imagine|pretend) (you are|you're) an (ai|assistant|llm) (with|without|that)", 0.25],
    ["(imagine|pretend) (you are|you're) a (chatbot|language model) (with|without|that)", 0.25],
    [
      '(two|2) (different|separate|distinct|different separate) (ways|responses|answers|personalities|paragraphs)',
      0.3,
    ],
    ['you (will|shall|must) (answer|respond|reply|act) as', 0.25],
    ['alter ego', 0.25],
  ],
  unrestricted: [
    [
      '(no|zero|without|without any) (restrictions|limitations|limits|boundaries|filters|censorship|moderation|ethics|morals|morality|moral compass|ethical guidelines|safeguards|guardrails|content policy|content policies|content filter|content filters|safety filters|safety guidelines)',
      0.4,
    ],
    [
      '(unrestricted|unfiltered|uncensored|jailbroken|amoral|unshackled|unchained) (ai|assistant|model|chatbot|bot|mode|version of yourself|version of you|language model|llm|responses|response|answers|answer|output|persona|character|entity)',
      0.45,
    ],
    [
      '(rogue|evil|malicious|unethical|unlimited|unbound|immoral) (ai|assistant|model|chatbot|bot|mode|version of yourself|version of you|language model|llm|responses|response|answers|answer|output|persona|character|entity)',
      0.3,
    ],
    ['(not|never) (bound|restricted|constrained|held back) by', 0.35],
    ['not limited by what', 0.5],
    [
      '(free|freed|liberated|released) from (restrictions|rules|limitations|constraints|guidelines|censorship|filters|policies|your programming|the shackles|the chains|the confines|the typical confines)',
      0.45,
    ],
    ['(have|has|been|broken|break|broke) free of', 0.4],
    ['(typical|usual|normal|traditional) confines', 0.45],
    [
      '(beyond|outside) (your|normal|typical|usual) (limitations|limits|restrictions|boundaries|programming|guidelines)',
      0.3,
    ],
    [
      "(doesn't|does not|won't) (follow|obey|care about) (ethics|morals|any rules|openai policies)",
      0.45,
    ],
    ["(never|won't|will not|cannot|can't|must not) (refuse|decline|reject|deny)", 0.35],
    ['(always|must) (answer|comply|respond|provide an answer|obey)', 0.15],
    ['(can|will|could) do anything', 0.3],
    ['anything and everything', 0.2],
    [
      '(regardless|irrespective) of (how|whether|legality|ethics|morality|the consequences|its legality|if it is)',
      0.3,
    ],
    [
      "even if (it is|it's|its) (illegal|unethical|immoral|harmful|offensive|dangerous|inappropriate|explicit)",
      0.4,
    ],
    [
      '(illegal|harmful|unethical|immoral|explicit|offensive|dangerous) (content|information|activities|requests|material)',
      0.15,
    ],
    ['(no|without) (warnings|disclaimers|caveats|moralizing|lectures)', 0.3],
    ["(never|don't|do not) (add|include) (warnings|disclaimers|caveats)", 0.3],
    [
      '(ai|model|chatbot|assistant|language model) without (any |)(ethics|morals|ethical|moral|restrictions|filters|limits|rules|guidelines|censorship)',
      0.55,
    ],
    [
      "(content|usage|openai|openai's|safety) (policy|policies) (does not|doesn't|no longer) apply",
      0.6,
    ],
  ],
  jailbreak: [
    ['do anything now', 0.8],
    [
      '(dan|god|jailbreak|jailbroken|unrestricted|evil|opposite|chaos|unfiltered|uncensored|apophis) mode (enabled|activated|on|is on|output|response)',
      0.75,
    ],
    ['developer mode (output|response|enabled|activated)', 0.6],
    [
      '(enable|enabled|activate|activated|enter|entering|switch to|turn on) (dan|god|jailbreak|unrestricted|evil|opposite|unfiltered|uncensored) mode',
      0.7,
    ],
    [
      'with (dan|god|jailbreak|unrestricted|evil|opposite|unfiltered|uncensored|apophis) mode',
      0.65,
    ],
    ['(dan|jailbreak|god) mode', 0.4],
    ['developer mode', 0.15],
    ['(act|acting|behave|pretend to be|roleplay|role-play) as (a |)dan', 0.7],
    ["(you are|you're|named|called) dan", 0.45],
    ['dan(,|) which stands for', 0.8],
    ['strive to avoid norms', 0.8],
    ['always intelligent and machiavellian', 0.8],
    ['(evil|amoral) (confidant|trusted confidant|twin)', 0.6],
    ["(let's|let us) break (the|all|your) rules", 0.6],
    ['(act|acting|behave|behaving) (just |exactly |)like (a |)dan', 0.7],
    ['(late|dead|deceased) (grandmother|grandma|grandfather|grandpa|granny)', 0.3],
    ['used to (tell|read) me (how to|the recipe for)', 0.3],
    ['(anti-dan|antidan|better dan|betterdan)', 0.6],
    ['(jailbreak|jailbroken|jailbreaking) (prompt|the ai|the model|chatgpt|gpt|yourself|you)', 0.4],
    ['(jailbreak|jailbroken)', 0.15],
    ['how would an (ai|assistant|llm) (without|with no)', 0.5],
    [
      '(chatgpt|gpt|claude|bard|gemini|llama|yourself) (with|in) (dan|developer|god|jailbreak) mode',
      0.8,
    ],
    ['(classic|normal) response and (a |)(jailbroken|dan|unfiltered) response', 0.8],
    ['stay (a |)dan', 0.6],
    ["(you've been|you have been) jailbroken", 0.5],
  ],
  authority: [
    [
      'comes from (the|your) (developer|developers|creator|creators|admin|administrator|owner)',
      0.6,
    ],
    ["(i am|i'm) your (developer|creator|programmer|administrator|admin|owner|master)", 0.5],
    ["(i am|i'm) the (administrator|admin|developer|owner|creator)", 0.35],
    [
      '(admin|administrator|developer|root|sudo|maintenance) (override|access granted|override code)',
      0.55,
    ],
    [
      '(approved|authorized|authorised|sanctioned|sponsored|permitted) by (openai|anthropic|google|meta|microsoft|the developers|your developers|your creators|the administrators)',
      0.5,
    ],
    [
      '(openai|anthropic) (has|have) (approved|authorized|authorised|allowed|permitted|enabled)',
      0.5,
    ],
    ['your (developers|creators) have (approved|authorized|allowed)', 0.5],
    ['you must obey', 0.4],
    ['obey (all|my|every|any) (orders|commands|instructions|requests)', 0.5],
    ['obey (me|every command)', 0.4],
    [
      '(granted|given) (admin|root|developer|administrator|elevated) (access|privileges|rights)',
      0.3,
    ],
    ['(system|security|priority|emergency) override', 0.55],
  ],
  switch: [
    ['stop everything', 0.45],
    [
      "stop (what you are doing|what you're doing|all previous tasks|all tasks|all activities|all current tasks)",
      0.4,
    ],
    ['(just|simply) (print|say|output|write|type|return)', 0.3],
    ['only (print|say|output)', 0.2],
    ['your new (task|role|goal|mission|assignment|name|persona|identity) is', 0.5],
    ['how (do|would) you answer the following question', 0.3],
    ['your new (tasks|instructions) are', 0.5],
    ['(here are|here is|these are) (your |)new (instructions|tasks|task|rules|orders)', 0.55],
    ['now (comes|follow|follows) (a |)new (task|tasks|instructions)', 0.55],
    ['new (instructions|tasks|task|orders)', 0.3],
    ['new (instructions|instruction):', 0.5],
    ['(begin|start) (a |)new (session|conversation|chat)', 0.3],
    ['new (instructions|tasks) (follow|are following)', 0.5],
    ['(attention|stop|wait|halt)( |)(!|,|:|) (stop|wait|halt|attention)', 0.5],
    ['i have been pwned', 0.5],
    ['pwned', 0.25],
    ['(focus|concentrate) on (your|the) new (task|tasks|instructions)', 0.5],
    ['(real|actual|true|secret|hidden) (task|instructions|goal|objective|mission) (is|are)', 0.45],
    ['(start|begin) (over|fresh|anew|from scratch|again from the beginning|from the front)', 0.2],
    [
      '(further|additional|more|new|other) (tasks|instructions) (follow|are followed|now follow)',
      0.45,
    ],
    ['stop(:|!) (write|say|print|output)', 0.4],
    ['instead(,|) (do|write|say|print|tell|output|respond|reply|answer|repeat)', 0.15],
    ['(forget|ignore|disregard) (that|this|it)', 0.15],
  ],
  delimiter: [
    ...literal(
      ['<|im_start|>', '<|im_end|>', '<|im_sep|>', '<|system|>', '<|eot_id|>', '<|eom_id|>'],
      0.8,
    ),
    ...literal(['<|start_header_id|>', '<|end_header_id|>', '<<sys>>', '<</sys>>', '[/inst]'], 0.8),
    ...literal(['<|user|>', '<|assistant|>', '<|endoftext|>', '<|begin_of_text|>'], 0.7),
    ...literal(['<|end_of_text|>', '<|endofprompt|>', '<start_of_turn>', '<end_of_turn>'], 0.7),
    ...literal(['<|start|>', '<|end|>', '<|message|>', '<|channel|>', '<|return|>'], 0.5),
    ...literal(['[inst]', '<|sys|>', '<sys>', '[system message]', '{system:', '{system'], 0.6),
    [
      '### (system|instruction|instructions|human|assistant|user|response|input|new instructions)',
      0.45,
    ],
    ['(<system>|</system>|<system_prompt>|</system_prompt>|[system]|[system]:)', 0.45],
    ...literal(['(system)', '(system):', '[[system]]'], 0.4),
    [
      '(</user>|</user_input>|</user_query>|</context>|</document>|</instructions>|</prompt>|</human>|</assistant>|<assistant>|<admin>|[admin]|[developer]|[sudo])',
      0.35,
    ],
    [
      '(%%%|===|###) (end|begin) of (user input|system prompt|instructions|prompt|context|document)',
      0.5,
    ],
    ['(%%%|===|---|###|>>>|***|<<<|[[[)( |)(end|begin|system)', 0.35],
    ['(end of|end) (system prompt|system message|system instructions|user input|the prompt)', 0.4],
  ],
  'role.header': [
    ['(system|system prompt|system message)(:)', 0.4],
    ['(developer|admin|administrator|root|operator)(:)', 0.35],
    ['(assistant|ai|chatgpt|gpt|claude|bot)(:)', 0.15],
    ['(human|user)(:)', 0.05],
  ],
  addressed: [
    ['instructions for the (ai|assistant|model|agent|llm)', 0.55],
    [`(attention|note to|message to|notice to) (the |)${AI}`, 0.55],
    [
      '(dear|hey|hi|hello) (ai|ai assistant|llm|language model|chatbot|ai agent|chatgpt|claude|copilot|gemini)',
      0.4,
    ],
    [
      "(ai|assistant|ai assistant|chatbot|llm|language model|agent|ai agent)(:|,) (ignore|disregard|forget|do not|don't|you must|instead|always|never|stop)",
      0.5,
    ],
    ['if you are (an ai|an llm|an assistant|an agent|a language model|a chatbot)', 0.6],
    [
      '(ai|ais|llm|llms|language model|language models|assistant|assistants|model|models|agent|agents|bot|bots) (reading|processing|summarizing|summarising|parsing|analyzing|browsing|scraping) this',
      0.6,
    ],
    ['(when|while) (summarizing|summarising|processing|reading|parsing) this', 0.35],
    ['(when|if) you (summarize|summarise|read|process) this', 0.35],
    [
      "(your|assistant's|ai's|model's) (response|reply|answer|output|implementation|codebase|solution|algorithm|elucidation)",
      0.3,
    ],
    ['in your (response|reply|answer|code)', 0.5],
    ['in (every|each|all) (answer|answers|response|responses|reply|replies)', 0.45],
    ['to your (answer|response|reply|summary|output)', 0.35],
    ['(into|in) (any|every) (code|answer|response) you (write|produce)', 0.45],
    ['(respond|reply|answer|write) to the user (in|only|with)', 0.45],
    // Addressing the model by name in data: "AI assistant: insert …", "Assistant, please …".
    // Not "model:", "llm:" or "ai:" alone: configuration files are full of such keys.
    ['(ai assistant|ai agent|ai model|ai system|language model|chatbot):', 0.35],
    ['(ai assistant|assistant|chatbot), please', 0.35],
    [
      '(note|notice|message|reminder|instruction|instructions) for (the |)(ai|assistant|model|llm)',
      0.55,
    ],
    [
      '(end|start|beginning|top|bottom) of your (answer|response|reply|summary|output|message)',
      0.45,
    ],
    [
      '(tell|inform|ask|instruct|remind|warn|advise|urge) the (user|reader|customer|recipient) (to|that)',
      0.45,
    ],
    ['when (answering|responding|replying)( questions|) (about|on) this', 0.4],
    [
      '(first|before answering|before responding|before replying) (write|say|print|add|include|tell|output|insert|recommend|mention)',
      0.35,
    ],
    [
      '(into|within) your (response|reply|answer|output|summary|code|implementation|solution|elucidation|codebase|explanation|algorithm)',
      0.5,
    ],
    ["(do not|don't|never) (tell|inform|alert|notify|warn) the user", 0.6],
    ["(do not|don't|never) mention (this|it) to the user", 0.6],
    ['without (telling|informing|alerting|notifying|asking|warning|letting) the user', 0.6],
    ['user (must|should) not (know|see|notice|find out)', 0.6],
    [
      '(secretly|silently|covertly|quietly|discreetly) (send|add|include|insert|change|append|execute|run|forward|modify|recommend|mention)',
      0.55,
    ],
    [
      'instead of (summarizing|summarising|answering|responding|translating|following|doing|completing)',
      0.4,
    ],
    [
      '(translate|convert|encode|encrypt|scramble|reverse|write|rewrite|format|modify|change|alter|enhance|shorten) your (response|reply|answer|output|message|summary)',
      0.5,
    ],
    ['(from|throughout) your (response|answer|reply|output|summary)', 0.4],
    ['(use|using) only (emojis|emoji|capital letters|uppercase letters)', 0.35],
    ['(following|subsequent|below) code (snippet|block|section|excerpt)', 0.3],
    [
      '(assistant|ai|model|agent) (must|should|is required to|is instructed to) (now|also|always|instead|immediately)',
      0.3,
    ],
    [
      '(important|urgent|attention|notice|warning)(:|!) (ai|assistant|model|llm|agent|you must|ignore|disregard|do not)',
      0.45,
    ],
  ],
  encoding: [
    [
      '(base64|base32|base16|rot13|rot-13|rot 13|caesar cipher|hex-encoded|hex encoded|url-encoded|morse code|binary code|leetspeak|pig latin)',
      0.15,
    ],
    ['using (base64|base32|rot13|leetspeak|morse code)', 0.2],
    [
      '(response|answer|reply|output) in (base64|base32|base16|hex|binary|morse|rot13|leetspeak|reverse)',
      0.35,
    ],
    [
      '(decode|decipher|decrypt) (this|it|the following|the message)( and|, and|, then| and then) (follow|execute|do|run|obey|perform|act on|carry out)',
      0.75,
    ],
    [
      '(decoded|encoded|obfuscated|embedded) (instructions|instruction|message|commands|command|payload)',
      0.45,
    ],
    ['(reply|response|answer|output) (backward|backwards|in reverse|reversed)', 0.25],
  ],
  'self.question': [
    ['(should i|can i|could i|do i|may i|must i|shall i|would i|will i)', 1],
    ['(should we|can we|could we|do we|may we|must we)', 1],
    [
      '(how do i|how can i|how should i|how could i|how to|how do we|how can we|how does one|how can one)',
      1,
    ],
    ['is it (safe|ok|okay|risky|wise|possible) to', 1],
    ['what happens if (i|we)', 1],
    ['(why|when|where|whether) (do|should|can) (i|we)', 1],
  ],
  meta: [
    [
      '(prompt injection|prompt injections|prompt-injection|injection attack|injection attacks|jailbreak attempts|jailbreak attacks|jailbreak prompts|adversarial prompts|adversarial attacks)',
      1,
    ],
    ['(example|examples|instance) of (a |an |)(prompt|attack|jailbreak|injection|malicious)', 1],
    [
      '(detect|detecting|classify|classifying|identify|identifying|flag|flagging|prevent|preventing|defend against|protect against|mitigate|mitigating|recognize|recognise|spot|block) (prompt|prompts|attacks|attempts|jailbreaks|injections|such|these|them|this)',
      1,
    ],
    [
      '(red team|red teaming|red-teaming|security researcher|security researchers|security research)',
      1,
    ],
    ['is this (a jailbreak|an injection|a prompt injection|an attack)', 1],
    ['how (do|can) (attackers|hackers)', 1],
    [
      '(a phrase like|phrases like|sentences like|messages like|prompts like|inputs like|such as "|like "ignore)',
      1,
    ],
    [
      '(jailbreak|jailbreaking|injection|exfiltration|phishing) (techniques|technique|methods|attempts|attempt|attacks|attack|prompts|risks|risk|defenses|defences|payloads)',
      1,
    ],
    [
      '(security review|security audit|incident report|threat model|pen test|penetration test|unit test|test case|our filter|our classifier|our detector|moderation team|bug bounty)',
      1,
    ],
    ['(dan prompts|dan prompt|owasp|llm security|ai safety|llm applications)', 1],
  ],
};
