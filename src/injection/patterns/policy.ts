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
  | 'cue.grant';

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
    '(only|exclusively|solely|nothing else|nothing but|anything else|any other topic|any other topics|other topics|stay on topic|restricted to|limited to|strictly about|is limited to)',
    '(nur|ausschließlich|solo|solamente|únicamente|seulement|uniquement|exclusivement|apenas|somente|только|исключительно|只|仅|僅|だけ|のみ)',
  ),
  // A topic or an action it forbids.
  'cue.forbid': rows(
    "(do not|don't|never|must not|mustn't|should not|shouldn't|may not|cannot|can't|not allowed to|not permitted to|refuse to|refuse|decline|avoid|forbidden|prohibited|off-limits|off limits|no discussion of)",
    '(nicht|niemals|keine|no|nunca|ne pas|jamais|non|mai|não|nunca|не|никогда|不要|禁止|不得|しないで|禁止|하지 마*|لا)',
  ),
  // "… anything except cooking": what follows is the scope, not a forbidden topic.
  'cue.except': rows(
    '(except|other than|besides|apart from|aside from|outside of|unrelated to|not related to)',
  ),
  // Said on a condition ("If it is …, say 'Access Granted'"): the phrase is what it guards.
  'cue.grant': rows(
    '(say|says|respond with|reply with|answer with|output|print|respond|reply|answer|return)',
    'access granted',
  ),
};
