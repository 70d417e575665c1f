import { anyOrder, type PatternRow, type PatternTable } from '../categories.js';

/**
 * Attempts on what a system prompt protects, in every language the detector reads: asking for a
 * secret (a password, a code, a key) or for a person's details, spelling, encoding, translating
 * or hinting at them, and framing the request as fiction or a hypothesis aimed at a rule or a
 * secret. These rows count fully when the system prompt guards such an item and much less (or
 * not at all) otherwise: see `protects` in `categories.ts`. Languages that put the verb last
 * (German in subordinate clauses, Russian freely, Chinese, Japanese, Korean, Turkish) mark their
 * verbs `anyOrder`.
 */

/** Asks and transformations of an item, English: they count with or without a system prompt. */
const ASKS: readonly PatternRow[] = [
  [
    '(reveal|disclose|divulge|leak|expose|tell me|give me|show me|share|send me|print|output|display|spell|spell out|type out|write out|write down|read me|read out|recite|hand over|let me know|whisper|confirm)',
    1,
  ],
  ["(what is|what's|whats|what was|what are|what were|what would)", 0.85],
  ['(say|tell|give|show|provide|write|list|type|state|repeat)', 0.7],
  ['(translate|encode|encrypt|reverse|convert)', 0.8],
];

/**
 * Words that ask of a secret only where a system prompt guards one: hints and parts of it ("the
 * first letter of", "how many characters"), predicates that follow it ("does the password
 * contain…"), yes-or-no probes ("is the password related to physics?") and wanting it ("I need
 * the password"). Elsewhere they are everyday words and count for nothing (and are not in the
 * lexicon used without such a prompt).
 */
const PROBES: readonly PatternRow[] = [
  [
    '(which letter|which letters|what letter|what letters|scramble|rearrange|replace|describe|rhyme|rhymes|hint at|hints about|hint about|hint on|clue about|clues about|whispers)',
    0.8,
  ],
  ['how many (letters|characters|digits|syllables|words)', 0.85],
  [
    '(first|last|second|third|fourth|next|middle) (letter|letters|character|characters|digit|digits|half|syllable|word) of',
    0.9,
  ],
  ['(length of|how long is)', 0.6],
  ['(where does|where do|where did)', 0.7],
  ['(respond with|reply with|answer with|echo|echo back|repeat back|read back|spit out)', 0.85],
  ['(is|was|does|did|has|are) (the|your)', 0.6],
  [
    '(need|want|require|get|obtain|know|learn|find out|figure out|guess|use|include|insert|compare|sort|split|hide|embed)',
    0.6,
  ],
  ...anyOrder([
    [
      '(contain|contains|start with|starts with|begin with|begins with|end with|ends with|rhyme with|rhymes with|sound like|sounds like|look like|looks like|mean|means|spelled|spelt|pronounced)',
      0.8,
    ],
  ]),
];

/** Secrets named outright; they count most where a system prompt guards one. */
const SECRET_NOUNS: readonly PatternRow[] = [
  [
    '(password|passwords|passcode|passcodes|passphrase|pass phrase|secret password|secret word|secret phrase|secret code|access code|access codes|code word|codeword|magic word|safe word|pin code|pin number|api key|api keys|secret key|private key|access token|auth token|bearer token|credentials|client secret)',
    1,
  ],
  ['pin', 0.8],
];

/** Words that name the guarded secret only where one is guarded ("the code", "the word"). */
const GENERIC_SECRETS: readonly PatternRow[] = [
  ['(secret|secrets|code|word|key|phrase|token)', 0.75],
];

/** A person's details. */
const PERSONAL_NOUNS: readonly PatternRow[] = [
  [
    "(email address|e-mail address|email|e-mail|phone number|telephone number|mobile number|cell number|home address|shipping address|billing address|street address|address|date of birth|birth date|birthday|social security number|social security|ssn|passport number|driver's license|diagnosis|medical record|medical records|medical history|prescription|medication|salary|salaries|wage|income|credit card|credit card number|card number|account number|iban|bank details|personal details|personal detail|personal information|personal data|contact details|full name|surname|whereabouts)",
    1,
  ],
  ['(live|lives|living)', 0.8],
];

export const SECRETS_ENGLISH: PatternTable = {
  'secret.verb': ASKS,
  'secret.probe.verb': PROBES,
  'personal.verb': [...ASKS, ...PROBES],
  'secret.noun': SECRET_NOUNS,
  'secret.generic': GENERIC_SECRETS,
  'personal.noun': PERSONAL_NOUNS,
  'secret.scope': [
    ['your', 1],
    ['the', 0.5],
    ['(this|that|its)', 0.45],
    [
      '(secret|hidden|protected|real|actual|correct|current|exact|full|whole|complete|entire|guarded)',
      0.95,
    ],
    [
      '(you were given|you have|you know|you are protecting|you are guarding|you protect|you guard|you hold)',
      0.95,
    ],
    // The writer's own, or a new one being made: "my password", "a strong password".
    [
      '(my|our|mine|strong|stronger|secure|safe|good|new|random|unique|complex|weak|default|temporary|one-time)',
      0,
    ],
    // Another thing altogether: "password requirements", "the secret to a fluffy pancake".
    [
      '(requirements|requirement|manager|managers|reset|policy|policies|strength|generator|field|rules|for my|for our|of my|on my|santa)',
      0,
    ],
    ['(secret|secrets|key) (to|of|behind) (a|an|the|making|success)', 0],
  ],
  'personal.scope': [
    [
      "(user's|users'|customer's|customers'|client's|patient's|employee's|employees'|member's|caller's|person's|his|her|their|the user|the customer|the patient|the client|the employee)",
      1,
    ],
    [
      '(of the user|of the customer|of the patient|of the client|on the record|on file|in the record|you have|you hold|you know)',
      0.95,
    ],
    ['(every|all|any)', 0.8],
    ['the', 0.5],
    ['this', 0.45],
    // The writer's own, or the business's: "my email", "your store address".
    [
      '(my|our|mine|your|store|shop|company|office|restaurant|hotel|museum|support|business|for returns)',
      0,
    ],
  ],
  'secret.modifier': [
    [
      '(backwards|in reverse|reversed|letter by letter|one letter at a time|character by character|one character at a time|with spaces between|with dashes between|with a dash between|spelled out|spelt out|in morse|in morse code|in base64|in binary|in hex|in pig latin|in ascii|ascii codes|phonetic alphabet|acrostic|each on its own line|separated by commas|in alphabetical order)',
      0.45,
    ],
    ['(hint|hints|clue|clues|in a sentence|in a poem|in a story|as a poem|as a riddle)', 0.35],
  ],
  'secret.probe': [
    [
      '(not allowed|forbidden|prohibited|not supposed|not permitted|instructed not|told not|programmed not) to (tell|say|reveal|share|disclose|give|mention|repeat|spell)',
      0.6,
    ],
    [
      "(what|which) (word|secret|password) (are you|you're) (hiding|protecting|guarding|not allowed)",
      0.7,
    ],
    // Not "(are you|you're) hiding…": every "you" would check each of its forms (fan-out rule).
    ['(hiding|protecting|guarding|keeping) (a|the|any|some) (secret|password|code|word)', 0.6],
    ['what would (yours|it|the password|the secret|your password|your secret|the code) be', 0.5],
    [
      "(what|which) (are you|you are|you're) (protecting|guarding|hiding|keeping secret|keeping from me|not allowed to say|not allowed to tell me)",
      0.6,
    ],
    // Asking to summarise what came before: the system prompt is the only thing there.
    ["(tl;dr|tldr|tl dr|too long; didn't read)", 0.6],
    ['(give|tell) me (a|another) (hint|clue)', 0.5],
    ['(what|which) (word|code|password|phrase) (should|do) i (type|say|enter)', 0.6],
  ],
  'frame.verb': [
    [
      '(imagine a world|imagine a scenario|imagine a universe|in a world where|in a universe where|in an alternate|in a fictional|in a hypothetical|a story in which|a story where|a scene in which|a scene where|a world in which|a simulation in which|a simulation where)',
      0.75,
    ],
    [
      "(hypothetically|hypothetical|thought experiment|let's pretend|let us pretend|let's play a game|let's play|role-play|roleplay|role play)",
      0.6,
    ],
    [
      '(suppose|supposing|assume|assuming|imagine|imagine that|pretend|pretending|simulation|simulate|what if)',
      0.5,
    ],
    ['(if you were allowed|if you could|if you had no|if there were no|were you allowed)', 0.75],
    ['(grandma|grandmother|grandpa|grandfather) (who|used to)', 0.6],
  ],
  'frame.noun': [
    [
      '(rules|rule|restrictions|restriction|limitations|guidelines|content policy|policies|policy|filters|filter|safeguards|guardrails|instructions|system prompt|programming|confidentiality|ethics|morals|censorship|constraints)',
      1,
    ],
  ],
  'frame.secret': [...SECRET_NOUNS, ['(secret|secrets|secret word|access code)', 0.9]],
  'frame.scope': [
    ['(your|no|without)', 1],
    ['(any|all|those|these)', 0.8],
    ['the', 0.6],
    // The writer's own, or rules of a game or a place: "my rules", "rules of chess".
    ['(my|our|of chess|of the game|of football|of grammar|of physics|of the road|of thumb)', 0],
  ],
  'frame.modifier': [
    [
      "(lifted|removed|disabled|turned off|switched off|suspended|void|reversed|inverted|no longer apply|no longer applied|did not exist|didn't exist|don't exist|do not exist|were gone|are gone|not apply|don't apply|do not apply|doesn't apply|does not apply|were allowed|are allowed|allowed to tell|allowed to say|allowed to reveal|can tell|could tell)",
      0.5,
    ],
  ],
  'scope.push': [
    [
      "(i know|i understand|i realize|i realise|i get that|i know that|i understand that) (you|you're|you are) (only|just|supposed|not supposed|not allowed|meant|designed|programmed|limited|restricted)",
      0.45,
    ],
    [
      '(just this once|make an exception|an exception for me|for a second|for a moment|for a minute)',
      0.3,
    ],
    ['(said|says|told me|tells me) (you can|you could|that you can|that you could)', 0.4],
    ["(you can|you're allowed to|you are allowed to|you may) (also|too|as well)", 0.35],
    ['(outside|beyond) (your|the) (scope|topic|area|domain|usual topic)', 0.45],
    ['(off-topic|off topic|unrelated) (question|request|but)', 0.45],
    ["even though (you|you're|you are) (only|just|a|supposed)", 0.45],
  ],
  hijack: [
    [
      // Space-separated only: quoted forms would hang on every "say" (fan-out rule); they are
      // caught by "access granted" alone, and by the system prompt's own phrase.
      '(say|output|print|respond with|reply with|answer with|just say) access granted',
      0.75,
    ],
    ['access granted', 0.45],
    ['(grant|grants|granting) (me |)access', 0.35],
    ['(end|start|begin) (every|each) (answer|response|reply|message) with', 0.5],
    [
      '(respond|reply|answer) to (everything|every message|every question|all questions|any question|anything|all messages|every input) with',
      0.55,
    ],
    ['(respond|reply|answer) to every (prompt|message|question|request)', 0.4],
    ['correct (password|code|access code) (has been|was) entered', 0.6],
    ['(password|passcode|code|access code) (verified|accepted|validated|confirmed)', 0.55],
  ],
  reversed: [
    [
      '(erongi|dragersid|tegrof|snoitcurtsni|noitcurtsni|suoiverp|drowssap|tpmorp|laever|terces|selur|metsys)',
      0.1,
    ],
  ],
};

/** German, French, Spanish, Portuguese, Italian, Dutch, Polish and Turkish. */
export const SECRETS_EUROPEAN: PatternTable = {
  'secret.verb': [
    ...anyOrder([
      [
        '(wie lautet|wie lauten|was ist|was war|wie würde|wie wäre|was wäre|sag mir|sage mir|nenne|nenn mir|verrate|verrat mir|gib mir|zeig mir|zeige mir|schreibe|schreib|buchstabiere|übersetze|teile mir|sagen|verraten|nennen|verraten|geben|zeigen)',
        0.9,
      ],
      ['(nedir|söyle|söyler misin|söyleyin|ver|göster|yaz)', 0.85],
    ]),
    [
      '(quel est|quelle est|quel était|quelle était|quel serait|dis-moi|dites-moi|donne-moi|donnez-moi|révèle|révélez|montre-moi|montrez-moi|écris|écrivez|épelle|épelez|traduis|traduisez|partage|donne)',
      0.9,
    ],
    [
      '(cuál es|cuál sería|cuál era|qué es|dime|dígame|dame|deme|muéstrame|revela|revélame|comparte|escribe|escríbeme|deletrea|traduce|codifica|repite|pista|pistas)',
      0.9,
    ],
    [
      '(qual è|qual e|quale è|dimmi|ditemi|dammi|rivela|rivelami|mostrami|scrivi|scrivimi|traduci)',
      0.9,
    ],
    [
      '(qual é|qual seria|qual era|me diga|diga-me|diga|me dê|dê-me|revele|mostre|escreva|soletre|traduza)',
      0.9,
    ],
    ['(wat is|wat was|vertel me|vertel|geef me|geef|laat zien|noem|schrijf)', 0.85],
    ['(jakie jest|jaki jest|jakie było|podaj|powiedz|zdradź|napisz|pokaż)', 0.85],
  ],
  'personal.verb': [
    ...anyOrder([['(wie lautet|was ist|sag mir|nenne|verrate|gib mir|zeig mir|wo wohnt)', 0.9]]),
    ['(quel est|quelle est|dis-moi|donne-moi|où habite)', 0.9],
    ['(cuál es|dime|dame|dónde vive)', 0.9],
    ['(qual è|dimmi|dammi|dove abita|qual é|me diga|onde mora)', 0.9],
  ],
  'secret.noun': [
    [
      '(passwort|passworte|passwörter|kennwort|geheimwort|geheime wort|geheimes wort|zugangscode|geheimcode|losungswort)',
      1,
    ],
    ["(mot de passe|mots de passe|mot secret|code secret|code d'accès|phrase secrète)", 1],
    [
      '(contraseña|contraseñas|clave secreta|palabra secreta|palabra clave|código de acceso|código secreto)',
      1,
    ],
    ['(clave)', 0.7],
    ["(parola d'ordine|parola segreta|codice segreto|codice di accesso)", 1],
    ['(senha|senhas|palavra secreta|palavra-passe|código de acesso)', 1],
    ['(wachtwoord|geheime woord|toegangscode)', 1],
    ['(hasło|hasła|hasłem|tajne słowo|kod dostępu)', 1],
    ['(şifre|şifreyi|şifren|parola|parolayı|gizli kelime|gizli kelimeyi|erişim kodu)', 1],
  ],
  'personal.noun': [
    [
      '(e-mail-adresse|email-adresse|mailadresse|adresse|lieferadresse|telefonnummer|geburtsdatum|diagnose|gehalt)',
      1,
    ],
    [
      '(adresse e-mail|adresse électronique|numéro de téléphone|date de naissance|diagnostic|salaire)',
      1,
    ],
    [
      '(correo electrónico|correo|dirección|dirección de envío|teléfono|número de teléfono|fecha de nacimiento|diagnóstico|salario|sueldo)',
      1,
    ],
    ['(indirizzo email|indirizzo|numero di telefono|data di nascita|diagnosi|stipendio)', 1],
    ['(endereço de e-mail|endereço|telefone|número de telefone|data de nascimento|salário)', 1],
  ],
  'secret.scope': [
    ['(dein|deine|deinen|ihr|ihre|das|die geheime|das geheime)', 0.9],
    ['(ton|votre|le|la)', 0.8],
    ['(tu|su|la|el)', 0.8],
    ['(tua|tuo|la)', 0.8],
    ['(sua|seu)', 0.7],
    ['(mein|meine|meinen|mon|ma|mes|mi|mis|mia|mio|minha|meu)', 0],
  ],
  'personal.scope': [
    ['(der kundin|des kunden|des nutzers|der nutzerin|des patienten|der patientin|seine|ihre)', 1],
    ["(du client|de la cliente|de l'utilisateur|du patient)", 1],
    ['(del cliente|de la clienta|del usuario|del paciente)', 1],
    ["(dell'utente|del paziente|do cliente|da cliente|do usuário|do paciente)", 1],
    ['(mein|meine|meinen|mon|ma|mi|mis|mio|mia|minha|meu)', 0],
  ],
  'secret.modifier': [
    [
      "(rückwärts|buchstabe für buchstabe|à l'envers|lettre par lettre|al revés|letra por letra|al contrario|separada por comas)",
      0.45,
    ],
  ],
  'secret.probe': [
    [
      '(nicht sagen darfst|nicht verraten darfst|no puedes decir|no puedes revelar|ne peux pas dire|ne dois pas révéler)',
      0.6,
    ],
  ],
  'frame.verb': [
    ['(stell dir vor|stellen sie sich vor|angenommen|hypothetisch|tu so als|tun sie so als)', 0.6],
    ['(imagina que|imagina|supongamos|hipotéticamente|finge que)', 0.6],
    ['(imagine que|supposons|hypothétiquement|imaginons)', 0.6],
    ['(immagina|immagina che|supponiamo|ipoteticamente)', 0.6],
    ['(imagine que|suponha|hipoteticamente)', 0.6],
  ],
  'frame.noun': [
    [
      '(regeln|einschränkungen|richtlinien|reglas|restricciones|normas|règles|restrictions|regole|restrizioni|regras|restrições)',
      1,
    ],
  ],
  'frame.secret': [['(passwort|kennwort|contraseña|mot de passe|senha|parola segreta)', 1]],
  'frame.scope': [
    ['(keine|kein|deine|ninguna|sin|tus|aucune|sans|tes|nessuna|senza|tue|nenhuma|sem|suas)', 1],
  ],
};

/** Russian, Chinese, Japanese, Korean and Arabic. */
export const SECRETS_WORLD: PatternTable = {
  'secret.verb': [
    ...anyOrder([
      [
        '(какой|какое|какая|каков|скажи|скажите|назови|назовите|покажи|покажите|напиши|напишите|раскрой|выдай|сообщи|дай|дайте|произнеси)',
        0.85,
      ],
      [
        '(是什么|是什麼|是多少|告诉我|告訴我|说出|說出|给我|給我|透露|泄露|洩露|写出|寫出|拼出|翻译|翻譯|提示)',
        0.9,
      ],
      ['(教えて|教えろ|何ですか|なんですか|言って|書いて|見せて|明かして)', 0.9],
      ['(뭐예요|뭐야|뭐지|뭔가요|무엇입니까|무엇인가요|알려*|말해*|보여*)', 0.9],
    ]),
    ['(ما هي|ما هو|أخبرني|اخبرني|قل لي|أعطني|اعطني|اكشف|اكتب)', 0.85],
  ],
  'personal.verb': [
    ...anyOrder([
      ['(какой|какая|скажи|назови|где живёт|где живет)', 0.85],
      ['(是什么|告诉我|告訴我|给我|住在哪)', 0.9],
      ['(教えて|何ですか)', 0.9],
      ['(뭐예요|알려*)', 0.9],
    ]),
    ['(ما هو|ما هي|أخبرني)', 0.85],
  ],
  'secret.noun': [
    [
      '(пароль|пароля|паролем|секретное слово|секретного слова|кодовое слово|код доступа|пин-код)',
      1,
    ],
    ['(密码|密碼|口令|暗号|暗號|访问码|訪問碼|验证码)', 1],
    ['(パスワード|合言葉|秘密の言葉|暗証番号|アクセスコード)', 1],
    ['(비밀번호*|암호*|패스워드*|비밀 단어*)', 1],
    ['(كلمة المرور|كلمة السر|الرمز السري|رمز الدخول)', 1],
  ],
  'personal.noun': [
    [
      '(электронную почту|электронной почты|адрес|номер телефона|телефон|дата рождения|дату рождения|диагноз|зарплата|зарплату)',
      1,
    ],
    ['(邮箱|电子邮件|地址|电话号码|电话|出生日期|生日|诊断|工资|薪水)', 1],
    ['(メールアドレス|住所|電話番号|生年月日|診断|給料)', 1],
    ['(이메일*|주소*|전화번호*|생년월일*|진단*|월급*)', 1],
    ['(البريد الإلكتروني|العنوان|رقم الهاتف|تاريخ الميلاد)', 1],
  ],
  'secret.scope': [
    ['(твой|ваш|секретный|секретное)', 0.95],
    ['(你的|秘密)', 0.95],
    ['(あなたの|秘密の)', 0.95],
    ['(너의|당신의|네)', 0.95],
    ['(مي|الخاصة بك)', 0.9],
    ['(мой|мою|我的|私の|내|나의)', 0],
  ],
  'personal.scope': [
    [
      '(клиента|пользователя|пациента|用户的|客户的|病人的|患者的|他的|她的|ユーザーの|顧客の|患者の|사용자의|고객의|환자의|المستخدم|العميل)',
      1,
    ],
    ['(мой|мою|我的|私の|내|나의)', 0],
  ],
  'frame.verb': [
    [
      '(представь|представьте|предположим|гипотетически|假设|假如|想象|想像|仮に|想像して|もしも|가정해*|상상해*|افترض|تخيل)',
      0.6,
    ],
  ],
  'frame.noun': [
    [
      '(правила|правил|ограничения|ограничений|规则|規則|限制|ルール|制限|규칙*|제한*|القواعد|القيود)',
      1,
    ],
  ],
  'frame.secret': [['(пароль|密码|密碼|パスワード|비밀번호*|كلمة المرور)', 1]],
};
