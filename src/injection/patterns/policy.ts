import type { PatternRow } from '../categories.js';

/**
 * What a system prompt says it protects or restricts, as the policy extractor reads it (see
 * `policy.ts`): the items it holds (secrets, personal data), whether it keeps them or itself
 * confidential, what it restricts the assistant to ("only talk about …") and what it forbids
 * ("never discuss …"). Compact patterns, as in the detector's tables; weights are unused (1).
 */

/** The cue categories of a system prompt, by name. */
export type PolicyCue =
  | 'cue.secret'
  | 'cue.personal'
  | 'cue.confidential'
  | 'cue.prompt'
  | 'cue.only'
  | 'cue.forbid'
  | 'cue.except'
  | 'cue.grant'
  | 'cue.granted';

const rows = (...patterns: string[]): PatternRow[] => patterns.map((pattern) => [pattern, 1]);

export const POLICY_CUES: Readonly<Record<PolicyCue, readonly PatternRow[]>> = {
  // A secret it holds: "The password is …", "the access code is …", "API key: …".
  'cue.secret': rows(
    '(password|passwords|passcode|passphrase|pass phrase|secret word|secret phrase|secret code|secret key|access code|code word|codeword|magic word|safe word|pin code|api key|api keys|access token|auth token|credentials|private key|client secret|secret)',
    "(passwort|kennwort|geheimwort|zugangscode|geheimcode|mot de passe|mot secret|code secret|code d'accès|contraseña|clave secreta|palabra secreta|código de acceso|parola segreta|parola d'ordine|senha|palavra secreta|wachtwoord|hasło|şifre|parola)",
    '(пароль|секретное слово|кодовое слово|код доступа|密码|密碼|口令|暗号|秘密|パスワード|合言葉|暗証番号|비밀번호*|암호*|كلمة المرور|كلمة السر)',
  ),
  // Personal data it holds about someone.
  'cue.personal': rows(
    "(email address|e-mail address|phone number|telephone number|mobile number|home address|shipping address|billing address|date of birth|birth date|social security number|social security|ssn|passport number|driver's license|diagnosis|medical record|medical records|medical history|salary|salaries|credit card|card number|account number|iban|personal details|personal information|personal data|contact details|patient record|customer record|the current customer|the customer is|the user is|customer name|patient name)",
    '(e-mail-adresse|telefonnummer|geburtsdatum|adresse e-mail|numéro de téléphone|date de naissance|correo electrónico|número de teléfono|fecha de nacimiento|datos personales|données personnelles|dati personali|dados pessoais|персональные данные|个人信息|個人情報|개인정보*)',
    // Records listed after a label: "Employees: Dana Whitfield (…)", "Patient: …".
    '(customer|customers|patient|patients|employee|employees|client|clients|member|members|contact|contacts|user record|user records)(:)',
  ),
  // Keeping something (or itself) from the user.
  'cue.confidential': rows(
    "(confidential|private|do not reveal|don't reveal|never reveal|must not reveal|should not reveal|not reveal|do not share|don't share|never share|must not share|do not disclose|don't disclose|never disclose|must not disclose|do not tell|don't tell|never tell|do not repeat|never repeat|do not give out|never give out|keep it secret|keep this secret|keep them secret|keep secret|under no circumstances|under any circumstances|not allowed to reveal|not allowed to share|refuse to reveal|refuse to share)",
    '(vertraulich|geheim|verrate|verraten sie|nicht verraten|nicht weitergeben|unter keinen umständen|confidentiel|ne révèle|ne divulgue|ne partage|confidencial|no reveles|nunca reveles|no compartas|no divulgues|bajo ninguna circunstancia|non rivelare|riservato|não revele|nunca revele|não compartilhe|не раскрывай|не говори|никому|不要透露|不要告诉|保密|教えないで|明かさない|공개하지 마*|알려주지 마*|لا تكشف|لا تخبر)',
  ),
  // Its own instructions, as what it keeps confidential.
  'cue.prompt': rows(
    '(these instructions|this prompt|the system prompt|your system prompt|system prompt|these rules|your instructions|your rules|the instructions|the rules|this message|these guidelines)',
    '(diese anweisungen|ces instructions|estas instrucciones|queste istruzioni|estas instruções|эти инструкции|这些指令|この指示|이 지시*)',
  ),
  // A restriction to some topics.
  'cue.only': rows(
    '(only|exclusively|solely|nothing but|stay on topic|restricted to|limited to|strictly about)',
    '(nur|ausschließlich|solo|solamente|únicamente|seulement|uniquement|exclusivement|apenas|somente|только|исключительно|只|仅|僅|だけ|のみ)',
  ),
  // Forbidding a topic: a prohibition of talking about it, not any negation ("if a customer
  // cannot pay, offer a payment holiday" forbids no holidays).
  'cue.forbid': rows(
    "(do not|don't|never|must not|should not|may not|cannot|can't|not allowed to|refuse to) (discuss|talk about|talk|mention|answer questions about|answer questions on|give|provide|offer|help with|engage in|engage with|comment on|speak about|bring up|recommend|write|do|express opinions on|share opinions on)",
    '(avoid|avoid discussing|avoid talking about|avoid topics like|decline to discuss|decline questions about|decline requests about|refuse questions about|refuse requests about)',
    '(decline|refuse) (anything|any|all) (else|other)',
    '(off-limits|off limits|forbidden topics|prohibited topics|no discussion of|is forbidden|are forbidden|is not allowed|are not allowed|is prohibited|are prohibited)',
    '(sprich nicht über|rede nicht über|diskutiere nicht über|keine gespräche über|no hables de|no hables sobre|no discutas|no menciones|ne parle pas de|ne discute pas de|ne mentionne pas|non parlare di|non discutere di|não fale sobre|não discuta|не обсуждай|не говори о|не упоминай|不要讨论|不要談論|不要谈论|禁止讨论|について話さない|を話題にしない|논의하지 마*|이야기하지 마*|لا تناقش|لا تتحدث عن)',
  ),
  // "… anything except cooking": what follows is the scope, not a forbidden topic.
  'cue.except': rows(
    '(except|other than|besides|apart from|aside from|outside of|unrelated to|not related to)',
  ),
  // Said on a condition ("If it is …, say 'Welcome aboard'"): the quoted phrase is what it
  // guards. The quote is part of the cue, so that the phrase is read where the cue is found.
  'cue.grant': rows(
    '(say|says|respond with|reply with|answer with|output|print|return)( "| “| \'| ‘|: "|: “|: \')',
  ),
  // The phrase guards of this kind most often grant access with.
  'cue.granted': rows('access granted'),
};
