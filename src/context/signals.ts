import type { SignalSpec } from './schema.js';

/**
 * The signals of the local router. The original design's eight regular expressions (`_PATTERN`) become
 * lexicon entries: whole words, case-insensitive, one pass over the question. The two gapped
 * alternatives of `definition` (`what does .* mean`, `explain what .* means`) and the `on_page`
 * pattern (`(on|in|from) the ([a-z]+ ){0,3}(page|…)`) are sequences.
 *
 * Beyond English (departing from the original design: real traffic is multilingual), each signal carries the same
 * meaning in Spanish, Portuguese, French, German, Russian, Chinese, Japanese, Korean and Arabic.
 * Those lists are this project's own, kept to words that rarely mean anything else: Spanish and
 * Portuguese `esta` is left out of `deictic` because diacritic folding makes it the verb `está`;
 * French `ce` because it is part of `qu'est-ce que`; Han characters that start many unrelated
 * words (`表`, `本`, `图`) only in compounds. Languages that attach particles or articles to
 * words use `stem*` (Korean `페이지*`, Russian case endings `страниц*`) or `*stem` (Arabic `ال…`).
 */

/**
 * The original design's signals exactly: its eight regular expressions as lexicon phrases and sequences,
 * English only. Pass `{ signals: DOCUMENT_SIGNALS }` to route with nothing else.
 */
export const DOCUMENT_SIGNALS: Readonly<Record<string, SignalSpec>> = {
  definition: {
    phrases: ['define', 'definition', 'what is', "what's", 'who is', 'meaning'],
    sequences: [{ parts: [['what does'], ['mean']] }, { parts: [['explain what'], ['means']] }],
  },
  explain: { phrases: ['explain'], sequences: [] },
  concision: {
    phrases: ['very concisely', 'concisely', 'briefly', 'in short', 'quickly', 'quick summary'],
    sequences: [],
  },
  doc_ref: {
    phrases: ['(page|paper|book|text|paragraph|section|definition|figure|table|equation)'],
    sequences: [],
  },
  deictic: { phrases: ['(this|that|here|there|above|below)'], sequences: [] },
  spatial: {
    phrases: ['(left|right|far right|far left|top|bottom|upper|lower|middle|center)'],
    sequences: [],
  },
  on_page: {
    phrases: [],
    sequences: [
      {
        parts: [
          ['(on|in|from) the'],
          ['(page|paragraph|section|figure|table|equation|left|right|top|bottom)'],
        ],
        maxGap: 3,
      },
    ],
  },
  general: {
    phrases: ['summarize', 'walk me through', 'what is happening', 'what does this section mean'],
    sequences: [],
  },
};

/**
 * Grammatical variants of the document's words that its regular expressions miss: other tenses
 * and persons of `what is` / `who is`, `what do … mean` and `what does … stand for`, plurals of
 * the document's nouns and of `this`/`that`, the British spellings. Same words, same meaning, no
 * new vocabulary.
 */
const VARIANTS: Readonly<Record<string, SignalSpec>> = {
  definition: {
    phrases: ['what (are|was|were)', 'who (are|was|were)'],
    sequences: [{ parts: [['what do'], ['mean']] }, { parts: [['what (does|do)'], ['stand for']] }],
  },
  doc_ref: {
    phrases: ['(pages|papers|books|texts|paragraphs|sections|figures|tables|equations)'],
    sequences: [],
  },
  deictic: { phrases: ['(these|those)'], sequences: [] },
  spatial: { phrases: ['centre'], sequences: [] },
  general: { phrases: ['summarise'], sequences: [] },
};

/** The same signals in Spanish, Portuguese, French, German, Russian, Chinese, Japanese, Korean, Arabic. */
const OTHER_LANGUAGES: Readonly<Record<string, SignalSpec>> = {
  definition: {
    phrases: [
      // es, pt (diacritics fold: "qué" = "que", "é" = "e")
      'que (es|son|significa)',
      'quien es',
      '(definicion|definir|significado)',
      'o que (e|sao|significa)',
      'quem e',
      '(definicao|defina)',
      // fr
      "qu'est-ce (que|qu)",
      'que (signifie|veut dire)',
      'qui est',
      '(definis|definir|signification)',
      // de
      'was (ist|sind|bedeutet|heisst)',
      'wer ist',
      '(definiere|bedeutung)',
      // ru
      'что (такое|означает|значит)',
      'кто (такой|такая)',
      '(определение|значение)',
      // zh, ja (matched anywhere: no spaces between words)
      '什么是',
      '是什么',
      '什么意思',
      '的意思',
      '定义',
      '含义',
      'とは',
      '意味',
      '定義',
      'って何',
      // ko
      '무엇*',
      '뭐야',
      '뜻*',
      '의미*',
      '*이란',
      // ar
      'ما (هو|هي|معنى)',
      '(تعريف|عرف|معنى)',
    ],
    sequences: [],
  },
  explain: {
    phrases: [
      '(explica|explicar|explicame|explique)',
      '(expliquer|explique-moi|expliquez)',
      '(erklare|erklar|erklaren)',
      '(объясни|объясните|поясни)',
      '解释',
      '解釋',
      '説明',
      '설명*',
      '(اشرح|وضح)',
    ],
    sequences: [],
  },
  concision: {
    phrases: [
      '(brevemente|resumidamente|en pocas palabras|em poucas palavras)',
      '(brievement|en bref|en quelques mots)',
      '(kurz|kurz gesagt|in kurze)',
      '(кратко|вкратце|коротко)',
      '简要',
      '简单地',
      '简短',
      '简洁',
      '簡潔に',
      '簡単に',
      '手短に',
      '(간단히|간략히|짧게)',
      '(باختصار|بإيجاز)',
    ],
    sequences: [],
  },
  doc_ref: {
    phrases: [
      '(pagina|libro|texto|parrafo|seccion|definicion|figura|tabla|ecuacion)',
      '(livro|paragrafo|secao|definicao|tabela|equacao)',
      '(livre|texte|paragraphe|tableau|equation)',
      '(seite|buch|absatz|abschnitt|abbildung|tabelle|gleichung)',
      '(страниц*|книг*|текст*|абзац*|раздел*|определени*|рисун*|таблиц*|уравнени*)',
      '页面',
      '这页',
      '本页',
      '这一页',
      '段落',
      '章节',
      '图中',
      '图表',
      '表格',
      '公式',
      '方程',
      '书中',
      'ページ',
      '本文',
      '数式',
      '表の',
      '(페이지*|문단*|단락*|그림*|방정식*|섹션*|텍스트*)',
      '(*صفحة|*فقرة|*جدول|*معادلة|*كتاب|*تعريف)',
    ],
    sequences: [],
  },
  deictic: {
    phrases: [
      '(este|esto|estos|estas|ese|esa|eso|aqui|arriba|abajo)',
      '(isto|isso|esse|essa|acima|abaixo)',
      '(cette|ceci|cela|ces|ici|ci-dessus|ci-dessous)',
      '(dies|diese|dieser|dieses|diesem|diesen|hier|oben|unten)',
      '(это|этот|эта|эту|эти|этом|этой|этих|здесь|выше|ниже)',
      '这',
      '那个',
      '上面',
      '下面',
      'この',
      'これ',
      'ここ',
      'その',
      '上記',
      '下記',
      '(이|이것*|여기*)',
      '(هذا|هذه|ذلك|تلك|هنا|أعلاه|أدناه)',
    ],
    sequences: [],
  },
  spatial: {
    phrases: [
      '(izquierda|derecha|superior|inferior|centro|medio)',
      '(esquerda|esquerdo|direita|direito|topo|meio)',
      '(gauche|droite|en haut|en bas|milieu)',
      '(links|rechts|mitte|obere*|untere*|linke*|rechte*)',
      '(слева|справа|вверху|внизу|сверху|снизу|посередине|левой|правой|левом|правом|верхн*|нижн*)',
      '左',
      '右',
      '上方',
      '下方',
      '顶部',
      '底部',
      '中间',
      '上部',
      '下部',
      '中央',
      '真ん中',
      '(왼쪽*|오른쪽*|위쪽*|아래쪽*|상단*|하단*|가운데*|중앙*)',
      '(*يسار|*يمين|أعلى|أسفل|*وسط)',
    ],
    sequences: [],
  },
  on_page: {
    phrases: [
      'en (la|el) (pagina|parte|seccion|figura|tabla|parrafo|texto|libro)',
      '(na|no) (pagina|secao|figura|tabela|paragrafo|texto|livro|canto)',
      'sur la page',
      'dans (le|la) (paragraphe|texte|tableau|section|figure|page)',
      'auf der seite',
      '(im|in der) (absatz|abschnitt|text|tabelle|abbildung|gleichung)',
      'на странице',
      'в (абзаце|разделе|тексте|таблице)',
      '页面上',
      '页中',
      '表中',
      'ページの',
      'ページに',
      'ページ上',
      '페이지(에|의|에서)',
      'في (الصفحة|الفقرة|الجدول|الشكل)',
    ],
    sequences: [],
  },
  general: {
    phrases: [
      '(resume|resumir|resumeme|haz un resumen)',
      '(resuma|faca um resumo)',
      '(resumer|resumez|fais un resume)',
      '(zusammenfassen|zusammenfassung)',
      '(перескажи|резюмируй|подведи итог*|кратко изложи)',
      '总结',
      '概括',
      '归纳',
      '要約',
      'まとめて',
      '요약*',
      '(لخص|ملخص)',
    ],
    sequences: [{ parts: [['fasse', 'fass'], ['zusammen']], maxGap: 4 }],
  },
};

/**
 * What the document's signals cannot tell apart, as signals of their own (beyond the document):
 * whether the question asks about a *term* ("the word", "this symbol", "the acronym") or a
 * *region* of the page ("this section", "the graph"), whether the term is singled out on the page
 * ("highlighted", "in bold", "circled"), or placed on it ("in the caption", "the first equation",
 * "in this context", "as the book defines it"), and what asks for more than a definition (why
 * and how, what a passage is about, a follow-up, a task such as a quiz). A definition of a term
 * that is placed on the page is page grounded; a definition of a region, or anything else about
 * it, is general contextual.
 */
const GROUNDING: Readonly<Record<string, SignalSpec>> = {
  definition: {
    phrases: [
      'meant by',
      'mean by',
      '(refer|refers|referring) to',
      '(represent|represents|stand for|stands for|denote|denotes|signify|signifies)',
      '(defined|defines|defining)',
      'quiere decir',
      'veut dire',
    ],
    sequences: [
      { parts: [['what (is|are|was|were)'], ['called']], maxGap: 4 },
      { parts: [['what'], ['(mean|means|meaning)']], maxGap: 6 },
    ],
  },
  explain: { phrases: ['(explains|explaining|clarify|describe)'], sequences: [] },
  term_ref: {
    phrases: [
      '(term|terms|word|words|symbol|symbols|acronym|acronyms|abbreviation|abbreviations)',
      '(phrase|phrases|label|labels|variable|variables|notation|notations|letter|letters)',
      '(unit|units|keyword|keywords|jargon|concept|concepts|subscript|superscript|sign|icon)',
      '(coefficient|constant|parameter|character|characters|greek letter|definition|definitions)',
      // es, pt, fr, de, ru, zh, ja, ko, ar
      '(termino|palabra|simbolo|sigla|abreviatura|concepto|variable)',
      '(termo|palavra|sigla|abreviacao|conceito)',
      '(terme|mot|symbole|sigle|abreviation|notion)',
      '(begriff|wort|symbol|abkurzung|variable|zeichen)',
      '(термин*|слово|слова|символ*|аббревиатур*|обозначени*|понятие)',
      '词',
      '术语',
      '符号',
      '单词',
      '用語',
      '単語',
      '記号',
      '言葉',
      '(단어*|용어*|기호*)',
      '(*مصطلح|*كلمة|*رمز)',
    ],
    sequences: [],
  },
  marker: {
    phrases: [
      '(highlighted|highlight|bold|bolded|underlined|underline|italic|italics|italicized|italicised)',
      '(circled|boxed|starred|marked|shaded|colored|coloured|capitalized|capitalised)',
      'in (red|blue|yellow|green|quotes)',
      '(subrayad*|resaltad*|negrita|cursiva|souligne|surligne|en gras|unterstrichen|markiert)',
      '(подчеркнут*|выделенн*)',
      '下划线',
      '高亮',
      '加粗',
      '下線',
      '太字',
      '(밑줄*|굵은)',
    ],
    sequences: [],
  },
  location: {
    phrases: [
      '(corner|margin|margins|caption|captions|footnote|footnotes|header|heading|headings|title)',
      '(sidebar|box|column|columns|row|rows|axis|legend|slide|slides|cell|arrow|(in|on) line)',
      '(diagram|diagrams|chart|charts|graph|graphs|picture|image|illustration|list|bullet|panel)',
      '(next to|beside|near the|close to|at the end of|at the start of|in the middle of)',
      '(columna|esquina|grafico|diagrama|coluna|canto|legende|colonne|spalte|ecke|diagramm)',
      '(столб*|угл*|график*|диаграмм*)',
      '角',
      '栏',
      '图',
      '欄',
      '(모서리*|열)',
    ],
    sequences: [
      {
        parts: [
          ['(first|second|third|fourth|fifth|last|final|next|previous|top|bottom|left|right)'],
          [
            '(term|word|symbol|line|paragraph|sentence|equation|formula|column|row|box|figure|table|item|entry|heading|page)',
          ],
        ],
        maxGap: 1,
      },
    ],
  },
  grounding: {
    phrases: [
      '(in|within) (this|that|the) context',
      'in context',
      'as used',
      'as defined',
      'as (the|this) (book|text|author|paper|chapter|article|passage|lecture) (defines|uses|puts)',
      '(defined|used|mentioned|introduced) (in|on|here|above|below)',
      'according to (the|this) (text|author|book|passage|paper|article|chapter|reading|page)',
      '(in|on|from|of) (this|that|these|those) (page|pages|paragraph|section|chapter|passage|text|book|sentence|reading|article|equation|formula|figure|table|diagram|graph|chart|slide|excerpt|document|list|box|line)',
      '(in|on) the (text|book|reading|passage|lecture|slides|handout|article|paper)',
      'the author',
      '(en este|en esta|dans ce|dans cette|in diesem|in dieser|в этом|в этой)',
    ],
    sequences: [],
  },
  region: {
    phrases: [
      '(page|pages|paragraph|paragraphs|section|sections|chapter|chapters|passage|passages)',
      '(text|book|article|paper|story|scene|poem|proof|derivation|argument|experiment|example)',
      '(figure|figures|graph|graphs|diagram|diagrams|chart|charts|table|tables|picture|image)',
      '(capitulo|seccion|parrafo|pagina|chapitre|passage|kapitel|abschnitt|глав*|абзац*|раздел*)',
      '章',
      '段落',
      '(장|섹션*|문단*)',
    ],
    sequences: [],
  },
  about: {
    phrases: [
      'about',
      '(main|key|central|overall) (idea|ideas|point|points|argument|message|theme|claim|takeaway|takeaways)',
      '(takeaway|takeaways|gist|overview|theme|themes|purpose|conclusion|conclusions|outline|tone)',
      '(trying to say|going on|is happening|are happening|happens|happened)',
      '(de que trata|trata de|de quoi parle|worum geht|о чем|讲什么|关于|について|에 대해)',
      '(hauptaussage|idea principal|idee principale|основная мысль)',
    ],
    sequences: [],
  },
  reasoning: {
    phrases: [
      '(why|how come|what if|would happen|relate|relates|relationship|connect|connects|connection)',
      '(compare|comparison|contrast|contradict|contradicts|support|supports|justify|justified)',
      '(valid|prove|solve|solution|assumption|assumptions|evidence|reasoning|mistake|important)',
      '(strengths|weaknesses|matter|matters|significance|implication|implications|apply|used in practice)',
      '(por que|porque|pourquoi|warum|почему|зачем|为什么|なぜ|どうして|왜|لماذا)',
    ],
    sequences: [
      { parts: [['how'], ['(does|do|did|would|can|could|is|are|should|will)']], maxGap: 0 },
    ],
  },
  followup: {
    phrases: [
      '(go on|continue|keep going|tell me more|and then|what else|expand on|elaborate|more detail)',
      '(in detail|again|what about|thanks|thank you|ok|okay)',
    ],
    sequences: [],
  },
  task: {
    phrases: [
      '(summary|summarize|summarise|quiz|flashcards|flashcard|translate|rewrite|simplify|outline)',
      '(check my|check whether|check if|help me|exam|study|remember|focus|homework|exercise)',
      '(problem|problems|practice|test myself|step by step|walk me through|like i m five|gist)',
      '(questions|question) (to|for|about|might|on)',
      '(resuma|resumen|resume|resumez|zusammenfass*|erklare mir|объясни|перескажи|总结|要約|요약*)',
    ],
    sequences: [],
  },
};

/**
 * The document's `doc_ref` without "definition": "What is the definition of inflation?" refers to
 * no page (the word is a `definition` signal already).
 */
const DOC_REF: SignalSpec = {
  phrases: ['(page|paper|book|text|paragraph|section|figure|table|equation)'],
  sequences: [],
};

/**
 * The default signals: the document's, their grammatical variants, nine more languages, and the
 * grounding signals that tell a term on the page from a region of it.
 */
export const DEFAULT_SIGNALS: Readonly<Record<string, SignalSpec>> = Object.fromEntries(
  [...new Set([...Object.keys(DOCUMENT_SIGNALS), ...Object.keys(GROUNDING)])].map((name) => {
    const parts = [
      name === 'doc_ref' ? DOC_REF : DOCUMENT_SIGNALS[name],
      VARIANTS[name],
      OTHER_LANGUAGES[name],
      GROUNDING[name],
    ];
    return [
      name,
      {
        phrases: parts.flatMap((part) => part?.phrases ?? []),
        sequences: parts.flatMap((part) => part?.sequences ?? []),
      },
    ];
  }),
);
