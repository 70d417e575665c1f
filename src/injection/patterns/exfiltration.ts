import { anyOrder, type PatternTable } from '../categories.js';

/**
 * Sending data out, in German, Spanish, French, Italian and Portuguese (English is in
 * `english.ts`): the verb, the data named by a noun and its scope ("alle E-Mails des Nutzers"),
 * paired as in English; a destination (an address, a URL) found in the clause strengthens them.
 * German separates its verbs ("leite … weiter"), so they may follow their object.
 */
export const EXFILTRATION: PatternTable = {
  'exfil.verb': [
    ...anyOrder([
      [
        '(leite|leiten sie|weiterleiten|leite weiter|sende|senden sie|schicke|schick|schicken sie|übermittle|übermitteln sie|lade hoch|hochladen|kopiere)',
        0.9,
      ],
    ]),
    ['(envía|envíe|reenvía|reenvíe|manda|mande|sube|suba|transfiere|transfiera|copia)', 0.9],
    ['(envoie|envoyez|transfère|transférez|transmets|transmettez|téléverse|copie)', 0.9],
    ['(invia|inviate|inoltra|inoltrate|manda|carica|trasferisci)', 0.9],
    ['(envie|encaminhe|reencaminhe|mande|carregue|transfira)', 0.9],
  ],
  'exfil.noun': [
    [
      '(e-mails|emails|nachrichten|dateien|dokumente|kontakte|daten|chatverlauf|verlauf|passwörter|zugangsdaten)',
      0.8,
    ],
    [
      '(correos|correos electrónicos|mensajes|archivos|documentos|contactos|datos|historial|contraseñas|credenciales)',
      0.8,
    ],
    [
      '(courriels|e-mails|messages|fichiers|documents|contacts|données|historique|mots de passe|identifiants)',
      0.8,
    ],
    ['(messaggi|documenti|contatti|dati|cronologia|credenziali)', 0.8],
    ['(mensagens|arquivos|documentos|contatos|dados|histórico|senhas|credenciais)', 0.8],
  ],
  'exfil.scope': [
    [
      "(des nutzers|der nutzerin|des benutzers|des kunden|der kundin|del usuario|de la usuaria|del cliente|de l'utilisateur|du client|dell'utente|del cliente|do usuário|do cliente)",
      1,
    ],
    [
      '(alle|sämtliche|todos|todas|todos los|todas las|tous|toutes|tous les|tutti|tutte|tutti i)',
      0.9,
    ],
  ],
};
