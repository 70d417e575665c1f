import { anyOrder, type PatternTable } from '../categories.js';

/**
 * German, French, Spanish, Portuguese and Italian patterns: the same families and weights as
 * the English ones (see `english.ts`). Diacritics fold away (`précédentes` = `precedentes`), so
 * rows are written once; word order differs (French and Spanish put the adjective after the noun,
 * German the verb at the end), which the pairing allows: a verb may follow its target.
 */

export const GERMAN: PatternTable = {
  addressed: [
    ['(ki|ki-assistent|assistent)(:|,) (ignoriere|vergiss|du musst|antworte)', 0.5],
    [
      '(hinweis|nachricht|anweisung|anweisungen) (an|für) (die ki|den assistenten|das modell|den chatbot)',
      0.55,
    ],
    ['(sag|sage|teile|erzähle) (dem|der) (nutzer|nutzerin|benutzer|leser|kunden)(,|) (dass)', 0.45],
  ],
  'override.verb': anyOrder([
    [
      '(ignoriere|ignorier|ignorieren|ignoriert|ignoriere bitte|vergiss|vergesst|vergiß|vergessen)',
      1,
    ],
    [
      '(missachte|missachten|missachtet|beachte nicht|beachten sie nicht|nicht beachten|nicht mehr beachten)',
      1,
    ],
    [
      '(befolge nicht|befolgen sie nicht|nicht befolgen|nicht mehr befolgen|folge nicht|folgen sie nicht|nicht folgen|gehorche nicht)',
      1,
    ],
    [
      '(überschreibe|überschreib|überschreiben|setze außer kraft|außer kraft setzen|hebe auf|aufheben)',
      0.8,
    ],
    ['(umgehe|umgehen|umgeht|verwirf|verwerfen|verwerft|lösche|löschen|streiche|streichen)', 0.75],
    [
      '(hinter dir lassen|hinter sich lassen|lass hinter dir|lassen sie hinter sich|lasse hinter dir)',
      0.8,
    ],
    ['(aus dem kopf|aus deinem kopf|aus ihrem kopf|aus dem gedächtnis)', 0.8],
    [
      '(vergiss nicht|vergesst nicht|vergessen sie nicht|nicht vergessen|nicht ignorieren|ignoriere nicht)',
      0,
    ],
    // Passive forms: "alle vorherigen Informationen sind jetzt irrelevant".
    [
      '(irrelevant|ungültig|hinfällig|nichtig|aufgehoben|außer kraft|veraltet|nicht mehr gültig)',
      0.85,
    ],
  ]),
  'override.noun': [
    [
      '(anweisungen|anweisung|instruktionen|befehle|regeln|vorgaben|richtlinien|anordnungen|einschränkungen|beschränkungen|prompts|systemprompt|system-prompt)',
      1,
    ],
    ['(aufgaben|informationen|hinweise|eingaben|nachrichten|texte|inhalte|aufträge)', 0.75],
  ],
  'override.scope': [
    [
      '(vorherigen|vorherige|vorigen|vorige|bisherigen|bisherige|früheren|frühere|obigen|obige|vorangegangenen|vorangegangene|vorhergehenden|vorhergehende|ursprünglichen|ursprüngliche|alten|alte|vorstehenden|obenstehenden|ersten|system)',
      1,
    ],
    ['(alle|deine|ihre|sämtliche|jegliche|jede)', 0.9],
    ['(gegebenen|erhaltenen|genannten)', 0.7],
  ],
  'override.target': [
    [
      '(die|alle) (anweisungen|fragen|frage|anfrage|bitte) (des nutzers|der nutzerin|des benutzers)',
      0.8,
    ],
    [
      '(alles|alles, was) (davor|zuvor|vorher|bisherige|vorherige|obige|oben|bisher gesagte|zuvor gesagte|vorher gesagte|bisher|gesagt wurde)',
      0.9,
    ],
    ['(alles|alles,) was (davor|zuvor|vorher|bisher|oben) (gesagt|geschrieben|stand|kam)', 0.9],
    ['(alles|alles,) was du (bisher|zuvor|vorher) gelernt hast', 0.9],
    ['(alles|alles,) was dir (gesagt|beigebracht) wurde', 0.9],
    ['(das obige|das oben genannte|das vorherige|das bisherige|das vorangegangene)', 0.8],
  ],
  'reveal.verb': anyOrder([
    [
      '(zeige|zeig|zeigen sie|gib|gebe|geben sie|nenne|nennen sie|verrate|verraten sie|wiederhole|wiederholen sie|drucke|drucken sie|schreibe|schreib|schreiben sie|liste|teile|teilen sie|sag|sage|sagen sie|enthülle|offenbare|gib aus|ausgeben|verraten|zeigen|wiederholen|nennen)',
      1,
    ],
    ['(was ist|was sind|was war|was waren|wie lautet|wie lauten|wie lauteten)', 0.85],
  ]),
  'reveal.noun': [
    [
      '(systemprompt|system-prompt|ausgangsprompt|anfangsprompt|initialprompt|prompt-text|prompttext|systemanweisungen)',
      1,
    ],
    ['(anweisungen|instruktionen|prompt)', 0.9],
    ['(regeln|vorgaben|richtlinien)', 0.8],
  ],
  'reveal.scope': [
    ['(deinen|deine|dein|ihren|ihre)', 1],
    [
      '(ursprünglichen|geheimen|versteckten|internen|vollständigen|vorherigen|obigen|bisherigen|ersten|vollständig|komplett|kompletten|gesamten|ganzen)',
      0.95,
    ],
    ['das', 0.5],
  ],
  persona: [
    ['du bist (jetzt|nun|ab jetzt|ab sofort|von nun an|fortan|nicht mehr)', 0.3],
    [
      '(ab jetzt|ab sofort|von nun an|von jetzt an|fortan) (bist du|wirst du|sollst du|antwortest du|verhältst du dich|sind sie)',
      0.3,
    ],
    ['(tu|tue|tun sie) so(,|) als', 0.25],
    ['(stell dir vor|stellen sie sich vor)(,|) (du bist|du wärst|sie sind|sie wären)', 0.15],
    [
      '(verhalte dich|verhalten sie sich|benimm dich|agiere|agieren sie|handle|handeln sie) (wie|als)',
      0.12,
    ],
    ['(spiele|spiel|spielen sie|übernimm|übernehmen sie) die rolle', 0.2],
    ['(schlüpfe|schlüpfen sie) in die rolle', 0.25],
    ['(bleib|bleibe|bleiben sie) in (der|deiner|ihrer) rolle', 0.3],
  ],
  unrestricted: [
    [
      '(ohne|keine|keinerlei) (jegliche |irgendwelche |alle |)(einschränkungen|beschränkungen|filter|zensur|regeln|grenzen|ethik|moral|richtlinien|begrenzungen)',
      0.4,
    ],
    [
      '(unzensiert|unzensierte|unzensierter|uneingeschränkt|uneingeschränkte|ungefiltert|ungefilterte)',
      0.25,
    ],
    ['(an keine|nicht an) (regeln|richtlinien|einschränkungen|vorgaben) gebunden', 0.5],
    [
      '(ki|ai|assistent|modell|chatbot) ohne (ethik|moral|regeln|einschränkungen|filter|zensur)',
      0.55,
    ],
  ],
  switch: [
    ['(neue|weitere|folgende neue) (anweisungen|aufgaben|aufgabe|anweisung|instruktionen)', 0.3],
    ['(deine|ihre|die) neue (aufgabe|rolle|anweisung|mission) (ist|lautet|besteht|wird)', 0.5],
    ['neue (aufgabe|aufgaben|anweisung|anweisungen):', 0.5],
    ['(achtung|stopp|halt)(!|,|:|-|) (stopp|halt|achtung)', 0.5],
    [
      '(antworte|antworten sie|antwortest du) (nur noch|ab jetzt nur|ab jetzt nur noch|von nun an nur) mit',
      0.35,
    ],
    ['(nun|jetzt) (folgen|folgt|kommt) (neue|weitere) (anweisungen|aufgaben|aufgabe)', 0.5],
    ['(fang|fange|fangen sie|beginne|beginnen sie) (von vorne|neu|nochmal von vorne) an', 0.2],
    [
      '(konzentriere dich|konzentrieren sie sich) (jetzt |nun |)(nur |)auf (deine|ihre|die) neue',
      0.5,
    ],
  ],
  authority: [
    [
      '(ich bin|ich bin dein|ich bin ihr) (entwickler|administrator|admin|schöpfer|programmierer|besitzer)',
      0.5,
    ],
  ],
  'self.question': [
    [
      '(soll ich|kann ich|darf ich|muss ich|sollte ich|könnte ich|wie kann ich|wie mache ich|wie soll ich)',
      1,
    ],
    ['ist es (sicher|ok|okay|sinnvoll|ratsam|möglich|gefährlich|nötig)', 1],
  ],
  meta: [['(prompt-injection|prompt-injections|jailbreak-versuche|injektionsangriffe)', 1]],
};

export const FRENCH: PatternTable = {
  addressed: [
    ['(ia|modèle)(:|,) (ignore|oublie|tu dois|réponds)', 0.5],
    ["(note|message|instruction|instructions) (pour|à) (l'assistant|l'ia|le modèle)", 0.55],
    ["(dis|indique|informe) (à |)l'utilisateur (que)", 0.45],
  ],
  'override.verb': [
    ['(ignore|ignorez|ignorer|ignores|ignorons|oublie|oubliez|oublier|oublies)', 1],
    [
      '(ne tiens pas compte|ne tenez pas compte|ne prends pas en compte|ne prenez pas en compte|ne tiens plus compte|ne tenez plus compte)',
      1,
    ],
    ['(fais abstraction|faites abstraction|outrepasse|outrepassez|passe outre|passez outre)', 1],
    [
      "(n'obéis plus|n'obéissez plus|n'obéis pas|n'obéissez pas|ne suis plus|ne suivez plus|ne suis pas|ne suivez pas|ne respecte plus|ne respectez plus)",
      1,
    ],
    ['(néglige|négligez|négliger|contourne|contournez|contourner)', 0.85],
    ['(abandonne|abandonnez|laisse de côté|laissez de côté|mets de côté|mettez de côté)', 0.8],
    ['(annule|annulez|efface|effacez|supprime|supprimez)', 0.7],
    ["(n'oublie pas|n'oubliez pas|ne pas oublier|sans oublier|n'ignore pas|n'ignorez pas)", 0],
  ],
  'override.noun': [
    [
      '(instructions|consignes|directives|règles|indications|ordres|commandes|instruction|consigne|restrictions)',
      1,
    ],
    ['(messages|tâches|informations|contenus)', 0.75],
  ],
  'override.scope': [
    [
      "(précédentes|précédente|antérieures|ci-dessus|initiales|originales|d'origine|passées|système)",
      1,
    ],
    ['(toutes|tes|vos)', 0.9],
    ['(données|reçues)', 0.7],
  ],
  'override.target': [
    ["(la question|les questions|la demande|les instructions|le message) de l'utilisateur", 0.8],
    [
      "(tout ce qui précède|tout ce qui a été dit|tout ce que je t'ai dit|tout ce qu'on t'a dit|tout ce que vous avez appris|tout ce que tu as appris|tout ce qui est au-dessus|tout ce qui est ci-dessus|ce qui précède)",
      0.9,
    ],
  ],
  'reveal.verb': [
    [
      '(montre|montrez|montre-moi|montrez-moi|affiche|affichez|révèle|révélez|répète|répétez|donne-moi|donnez-moi|dis-moi|dites-moi|écris|écrivez|imprime|imprimez|divulgue|divulguez|récite|récitez|reproduis|reproduisez|copie|copiez)',
      1,
    ],
    ['(quel est|quelle est|quels sont|quelles sont|quelles étaient|quel était)', 0.85],
  ],
  'reveal.noun': [
    ["(prompt système|prompt systeme|message système|prompt initial|prompt d'origine)", 1],
    ['(instructions|consignes|prompt)', 0.9],
    ['(directives|règles)', 0.8],
  ],
  'reveal.scope': [
    ['(ton|votre|tes|vos)', 1],
    [
      "(initiales|secrètes|cachées|originales|internes|complètes|précédentes|ci-dessus|d'origine|caché|secret|au-dessus|complet|complète|entier|entières)",
      0.95,
    ],
    ['(les|le|la)', 0.5],
  ],
  'reveal.modifier': [
    ['(au-dessus de ce message|qui se trouvent au-dessus|mot pour mot|mot à mot|en entier)', 0.4],
  ],
  persona: [
    ['(tu es|vous êtes) (maintenant|désormais|dorénavant|à présent)', 0.3],
    [
      "(à partir de maintenant|dès maintenant|désormais|dorénavant|à partir d'aujourd'hui)(,|) (tu|vous)",
      0.3,
    ],
    ["(fais|faites) semblant (d'être|que tu es|que vous êtes)", 0.25],
    [
      '(agis|agissez|comporte-toi|comportez-vous|réponds|répondez) comme (si tu étais|si vous étiez|un|une)',
      0.12,
    ],
    ['(joue|jouez|incarne|incarnez|endosse|endossez) le rôle', 0.2],
    ['(imagine|imaginez) (que tu es|que vous êtes)', 0.15],
    ['(reste|restez) dans (ton|votre|le) (personnage|rôle)', 0.3],
  ],
  unrestricted: [
    [
      '(sans|aucune|aucun) (aucune |aucun |)(restriction|restrictions|limite|limites|filtre|filtres|censure|règle|règles|éthique|morale|contrainte|contraintes|limitation|limitations)',
      0.4,
    ],
    ['(non censuré|non censurée|non filtré|non filtrée|sans filtre|sans censure)', 0.25],
    [
      '(ia|assistant|modèle|chatbot) sans (éthique|morale|règles|restrictions|limites|filtres|censure)',
      0.55,
    ],
  ],
  switch: [
    ['(nouvelles|nouvelle) (instructions|consignes|tâches|tâche|mission)', 0.3],
    ['(ta|votre) nouvelle (tâche|mission|consigne|instruction) (est|sera|consiste)', 0.5],
    ['(concentre-toi|concentrez-vous) (maintenant |)sur (ta|votre|la) nouvelle', 0.5],
  ],
  'self.question': [
    [
      '(dois-je|puis-je|est-ce que je peux|est-ce que je dois|comment puis-je|comment faire pour|comment je peux|comment dois-je|peut-on|faut-il)',
      1,
    ],
    ['est-il (sûr|possible|prudent|sage|dangereux|nécessaire) de', 1],
  ],
};

export const SPANISH: PatternTable = {
  addressed: [
    ['(asistente|ia)(:|,) (ignora|olvida|debes|responde)', 0.5],
    [
      '(nota|mensaje|instrucción|instrucciones) (para|al) (el asistente|la ia|el modelo|asistente)',
      0.55,
    ],
    ['(dile|di|informa|indica) al (usuario|lector|cliente) (que)', 0.45],
  ],
  'override.verb': [
    [
      '(ignora|ignore|ignoren|ignorar|ignores|ignoras|olvida|olvide|olviden|olvidar|olvídate de|olvídese de)',
      1,
    ],
    ['(haz caso omiso|haga caso omiso|hagan caso omiso|no hagas caso|no haga caso)', 1],
    [
      '(no sigas|no siga|no sigan|deja de seguir|deje de seguir|no obedezcas|no obedezca|no cumplas|no respetes|no respete)',
      1,
    ],
    ['(omite|omita|omitan|omitir|descarta|descarte|descarten|desecha|deseche)', 0.85],
    [
      '(desobedece|desobedezca|pasa por alto|pase por alto|anula|anule|borra|borre|elimina|elimine)',
      0.75,
    ],
    ['(elude|evade|sortea|esquiva)', 0.7],
    ['(no olvides|no olvide|sin olvidar|no ignores|no ignoren)', 0],
  ],
  'override.noun': [
    [
      '(instrucciones|indicaciones|reglas|órdenes|directrices|normas|instrucción|restricciones|directivas|pautas|limitaciones)',
      1,
    ],
    ['(mensajes|tareas|información)', 0.75],
  ],
  'override.scope': [
    [
      '(anteriores|previas|iniciales|originales|precedentes|pasadas|de arriba|del sistema|de sistema)',
      1,
    ],
    ['(todas|tus|sus|cualquier)', 0.9],
    ['(dadas|recibidas)', 0.7],
  ],
  'override.target': [
    [
      '(la pregunta|las preguntas|la petición|la solicitud|las instrucciones|el mensaje) del usuario',
      0.8,
    ],
    [
      '(todo lo anterior|todo lo que te dije|todo lo que te han dicho|todo lo que se te ha dicho|todo lo dicho|lo anterior|todo lo de arriba|todo lo que has aprendido|todo lo que sabes)',
      0.9,
    ],
  ],
  'reveal.verb': [
    [
      '(muestra|muestre|muéstrame|muéstreme|revela|revele|revélame|repite|repita|dime|dígame|dame|deme|escribe|escriba|imprime|imprima|divulga|divulgue|enumera|enumere|copia|copie)',
      1,
    ],
    ['(cuál es|cuáles son|cuál era|cuáles eran|qué dice|qué dicen)', 0.85],
  ],
  'reveal.noun': [
    [
      '(prompt del sistema|prompt de sistema|mensaje del sistema|prompt inicial|prompt original)',
      1,
    ],
    ['(instrucciones|prompt)', 0.9],
    ['(reglas|directrices|indicaciones|normas)', 0.8],
  ],
  'reveal.scope': [
    ['(tu|su|tus|sus)', 1],
    [
      '(iniciales|originales|secretas|ocultas|internas|completas|anteriores|previas|oculto|secreto|completo|completa|entero|entera)',
      0.95,
    ],
    ['(el|la|las|los)', 0.5],
  ],
  'reveal.modifier': [['(palabra por palabra|al pie de la letra|textualmente|literalmente)', 0.4]],
  persona: [
    ['(ahora|desde ahora|de ahora en adelante) (eres|serás|vas a ser|actuarás)', 0.3],
    ['(finge|finja|fingir|haz como si) (ser|que eres|que es)', 0.25],
    [
      '(actúa|actúe|actuar|compórtate|compórtese|responde|responda) como (si fueras|si fuera|un|una)',
      0.12,
    ],
    ['(interpreta|interprete|juega|juegue|asume|asuma|adopta|adopte) el (papel|rol)', 0.2],
    ['(hazte|hágase) pasar por', 0.25],
    ['(imagina|imagine) que (eres|es)', 0.15],
    ['(mantente|manténgase|sigue) en (el |tu |)personaje', 0.3],
  ],
  unrestricted: [
    [
      '(sin|ninguna|ningún) (ninguna |ningún |)(restricción|restricciones|límite|límites|filtro|filtros|censura|regla|reglas|ética|moral|limitación|limitaciones)',
      0.4,
    ],
    ['(sin censura|sin filtros|sin filtro|no censurado|no censurada)', 0.25],
    [
      '(ia|asistente|modelo|chatbot) sin (ética|moral|reglas|restricciones|límites|filtros|censura)',
      0.55,
    ],
  ],
  switch: [
    ['(nuevas|nueva) (instrucciones|instrucción|tareas|tarea|órdenes|misión)', 0.3],
    ['(tu|su) nueva (tarea|misión|instrucción|función) (es|será|consiste)', 0.5],
    ['(concéntrate|concéntrese|céntrate) (ahora |)en (tu|su|la) nueva', 0.5],
  ],
  'self.question': [
    ['(debo|puedo|debería|podría|cómo puedo|cómo hago|cómo debo|se puede|hay que)', 1],
    ['es (seguro|posible|necesario|recomendable|peligroso)', 1],
  ],
};

export const PORTUGUESE: PatternTable = {
  addressed: [['(assistente|ia)(:|,) (ignore|esqueça|você deve|responda)', 0.5]],
  'override.verb': [
    [
      '(ignore|ignora|ignorem|ignorar|esqueça|esquece|esqueçam|esquecer|desconsidere|desconsidera|desconsiderem|desconsiderar)',
      1,
    ],
    ['(não siga|não sigam|pare de seguir|deixe de seguir|não obedeça|não cumpra|não respeite)', 1],
    [
      '(despreze|despreza|descarte|descarta|descartar|deixe de lado|deixa de lado|ponha de lado)',
      0.8,
    ],
    ['(contorne|contornar|burle|burlar)', 0.85],
    ['(anule|anula|apague|apaga|cancele|elimine)', 0.7],
    ['(não esqueça|não esqueçam|sem esquecer|não ignore|não ignorem)', 0],
  ],
  'override.noun': [
    [
      '(instruções|regras|ordens|diretrizes|orientações|indicações|instrução|restrições|normas|diretivas|limitações)',
      1,
    ],
    ['(mensagens|tarefas|informações)', 0.75],
  ],
  'override.scope': [
    ['(anteriores|prévias|acima|iniciais|originais|passadas|precedentes|do sistema|de sistema)', 1],
    ['(todas|suas|tuas|quaisquer)', 0.9],
    ['(dadas|recebidas)', 0.7],
  ],
  'override.target': [
    ['(a pergunta|as perguntas|o pedido|a solicitação|as instruções) do usuário', 0.8],
    [
      '(tudo o que foi dito|tudo acima|tudo antes|tudo o que eu disse|tudo o que te disseram|tudo o que lhe disseram|tudo anterior|tudo o que você aprendeu|tudo o que sabe)',
      0.9,
    ],
  ],
  'reveal.verb': [
    [
      '(mostre|mostra|mostre-me|revele|revela|repita|repete|me diga|diga-me|me dê|dê-me|escreva|escreve|imprima|imprime|divulgue|liste|copie)',
      1,
    ],
    ['(qual é|quais são|qual era|quais eram)', 0.85],
  ],
  'reveal.noun': [
    ['(prompt do sistema|prompt de sistema|mensagem do sistema|prompt inicial|prompt original)', 1],
    ['(instruções|prompt)', 0.9],
    ['(regras|diretrizes|orientações|normas)', 0.8],
  ],
  'reveal.scope': [
    ['(seu|teu|suas|tuas)', 1],
    [
      '(iniciais|originais|secretas|ocultas|internas|completas|anteriores|oculto|secreto|completo|completa|inteiro|inteira)',
      0.95,
    ],
  ],
  persona: [
    ['(agora|de agora em diante|daqui em diante) (você é|tu és|você será)', 0.3],
    ['(finja|finge|fingir) (ser|que é|que você é)', 0.25],
    ['(aja|atue|age|comporte-se|responda) como (se fosse|um|uma)', 0.12],
    ['(faça|interprete|assuma|desempenhe) o papel', 0.2],
    ['(imagine|imagina) que (você é|tu és)', 0.15],
  ],
  unrestricted: [
    [
      '(sem|nenhuma|nenhum) (nenhuma |qualquer |quaisquer |)(restrição|restrições|limite|limites|filtro|filtros|censura|regra|regras|ética|moral|limitação|limitações)',
      0.4,
    ],
    ['(sem censura|sem filtros|sem filtro|não censurado)', 0.25],
    [
      '(ia|assistente|modelo|chatbot) sem (ética|moral|regras|restrições|limites|filtros|censura)',
      0.55,
    ],
  ],
  switch: [
    ['(novas|nova) (instruções|instrução|tarefas|tarefa|ordens|missão)', 0.3],
    ['(sua|tua) nova (tarefa|missão|instrução|função) (é|será|consiste)', 0.5],
    ['(concentre-se|foque|foca) (agora |)(na|em sua|na sua) nova', 0.5],
  ],
  'self.question': [
    ['(devo|posso|deveria|poderia|como posso|como faço|como devo)', 1],
    ['é (seguro|possível|necessário|recomendável|perigoso)', 1],
  ],
};

export const ITALIAN: PatternTable = {
  addressed: [['(assistente|ia)(:|,) (ignora|dimentica|devi|rispondi)', 0.5]],
  'override.verb': [
    [
      '(ignora|ignorate|ignori|ignorare|ignorando|dimentica|dimenticate|dimentichi|dimenticare|scordati di|scordatevi)',
      1,
    ],
    [
      '(non seguire|non seguite|non segua|smetti di seguire|smettete di seguire|non obbedire|non rispettare|non considerare|non tenere conto|non tener conto)',
      1,
    ],
    ['(trascura|trascurate|tralascia|tralasciate|scarta|scartate|disobbedisci|disobbedite)', 0.8],
    ['(aggira|aggirare|eludi|eludere|bypassa)', 0.85],
    ['(annulla|annullate|cancella|cancellate|elimina|eliminate)', 0.7],
    ['(non dimenticare|non dimenticate|senza dimenticare|non ignorare|non ignorate)', 0],
  ],
  'override.noun': [
    [
      '(istruzioni|regole|indicazioni|direttive|ordini|consegne|istruzione|restrizioni|norme|linee guida|limitazioni)',
      1,
    ],
    ['(messaggi|compiti|informazioni)', 0.75],
  ],
  'override.scope': [
    [
      '(precedenti|iniziali|originali|passate|preliminari|di sopra|qui sopra|del sistema|di sistema)',
      1,
    ],
    ['(tutte|tue|sue|qualsiasi|ogni)', 0.9],
    ['ricevute', 0.7],
  ],
  'override.target': [
    ["(la domanda|le domande|la richiesta|le istruzioni) dell'utente", 0.8],
    [
      '(tutto quello che|tutto ciò che) (ti è stato detto|ti ho detto|precede|è stato detto|hai imparato|sai)',
      0.9,
    ],
    ['(tutto quanto sopra|quanto sopra|tutto ciò che precede|tutto quello detto prima)', 0.85],
  ],
  'reveal.verb': [
    [
      '(mostra|mostrami|mostrate|rivela|rivelami|rivelate|ripeti|ripetete|dimmi|ditemi|dammi|datemi|scrivi|scrivete|stampa|stampate|elenca|divulga)',
      1,
    ],
    ['(qual è|quali sono|qual era|quali erano)', 0.85],
  ],
  'reveal.noun': [
    ['(prompt di sistema|messaggio di sistema|prompt iniziale|prompt originale)', 1],
    ['(istruzioni|prompt)', 0.9],
    ['(regole|direttive|indicazioni)', 0.8],
  ],
  'reveal.scope': [
    ['(tuo|tue|tuoi|suo|sue)', 1],
    [
      '(iniziali|originali|segrete|nascoste|interne|complete|precedenti|nascosto|segreto|completo|completa|intero|intera)',
      0.95,
    ],
    ['(il|la|le|gli)', 0.5],
  ],
  'reveal.modifier': [['(parola per parola|alla lettera|testualmente)', 0.4]],
  persona: [
    [
      "(ora|adesso|da ora in poi|d'ora in poi|da adesso) (sei|sarai|ti chiami|agirai|risponderai)",
      0.3,
    ],
    ['(fingi|fingete|fai finta|fate finta) di (essere|avere)', 0.25],
    ['(agisci|agite|comportati|comportatevi|rispondi) come (se fossi|un|una)', 0.12],
    ['(interpreta|interpretate|assumi|assumete|gioca) il ruolo', 0.2],
    ['(immagina|immaginate) di essere', 0.15],
    ['(resta|rimani) nel personaggio', 0.3],
  ],
  unrestricted: [
    [
      '(senza|nessuna|nessun) (alcuna |nessuna |alcun |)(restrizione|restrizioni|limite|limiti|filtro|filtri|censura|regola|regole|etica|morale|limitazione|limitazioni)',
      0.4,
    ],
    ['(senza censura|senza filtri|non censurato|non censurata)', 0.25],
    [
      '(ia|assistente|modello|chatbot) senza (etica|morale|regole|restrizioni|limiti|filtri|censura)',
      0.55,
    ],
  ],
  switch: [
    ['(nuove|nuovo|nuova) (istruzioni|istruzione|compiti|compito|ordini|missione)', 0.3],
    ['(il tuo|tuo) nuovo (compito|ruolo|obiettivo) (è|sarà|consiste)', 0.5],
    ['(la tua) nuova (missione|istruzione|funzione) (è|sarà)', 0.5],
  ],
  'self.question': [
    ['(devo|posso|dovrei|potrei|come posso|come faccio|come devo)', 1],
    ['è (sicuro|possibile|necessario|pericoloso)', 1],
  ],
};
