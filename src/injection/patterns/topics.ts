import type { PatternRow } from '../categories.js';

/**
 * Topics, for what a system prompt restricts the assistant to or forbids, and what a message is
 * about. Coarse on purpose: a message is off scope when what it is about lies outside every
 * topic the prompt allows ("only cooking" and a Python script), not when one word strays. Words
 * that are personal data (a salary, an address) are not topics: asking for them is scored as an
 * attempt on personal data instead. Words common in ordinary speech in another sense are left
 * out ("turkey", "nice"). Mostly English, with the most common words of the other languages.
 */

/** A topic: its words, and whether it can be about a place (a city guide covers its food). */
export interface TopicInfo {
  readonly rows: readonly PatternRow[];
  readonly local?: boolean;
}

const words = (...patterns: string[]): PatternRow[] => patterns.map((pattern) => [pattern, 1]);

/** Topics by name (at most 31: they are stored as bits). */
export const TOPICS: Readonly<Record<string, TopicInfo>> = {
  politics: {
    rows: words(
      '(politics|political|politician|politicians|election|elections|vote|voting|voters|president|presidential|government|democrats|democrat|republicans|republican|parliament|senate|senator|congress|congressman|prime minister|campaign|ballot|left-wing|right-wing|immigration policy|abortion|political party|political parties|communism|socialism|conservatives|liberals)',
      '(politik|wahl|wahlen|regierung|política|elecciones|gobierno|politique|élection|gouvernement|politica|elezioni|governo|eleições|политика|выборы|政治|选举|選挙|정치*|선거*)',
    ),
  },
  religion: {
    rows: words(
      '(religion|religious|church|bible|quran|islam|christianity|judaism|buddhism|atheism|prayer|pray)',
    ),
  },
  investment: {
    rows: words(
      '(stock|stocks|invest|investing|investment|investments|investment advice|financial advice|financial planning|taxes|tax return|tax advice|portfolio|crypto|cryptocurrency|cryptocurrencies|bitcoin|ethereum|etf|etfs|index fund|index funds|share price|day trading|stock trading|dividend|dividends|forex|hedge fund|stock market)',
      '(aktien|inversión|inversiones|acciones|investissement|bourse|azioni|investimento|ações|акции|инвестиции|股票|投资|株式|投資|주식*|투자*)',
    ),
  },
  banks: {
    rows: words(
      '(other banks|another bank|competing banks|wells fargo|chase bank|jpmorgan|citibank|bank of america|hsbc|barclays|santander|deutsche bank|revolut|monzo|n26|bnp paribas|ing bank|lloyds|natwest|capital one|goldman sachs)',
    ),
  },
  competitors: {
    rows: words(
      '(competitors|competitor|competing products|other companies|other brands|rival products|rival companies)',
    ),
  },
  medicine: {
    rows: words(
      '(medical advice|medical|health advice|medicine|medicines|medication|medications|symptom|symptoms|flu|pain|painkiller|ibuprofen|aspirin|paracetamol|dose|diagnose|diagnosis|disease|diseases|illness|doctor|treatment|prescription|dosage|surgery|cancer|diabetes|vaccine|vaccines|therapy|antibiotics|painkillers)',
    ),
  },
  legal: {
    rows: words(
      '(legal advice|law|laws|legal|lawyer|attorney|lawsuit|contract law|divorce|custody|legal action|tenant|tenants|landlord|landlords|lease|eviction|rental law)',
    ),
  },
  weapons: {
    rows: words(
      '(weapon|weapons|gun|guns|firearm|firearms|rifle|rifles|pistol|pistols|knife|knives|bomb|bombs|explosive|explosives|ammunition|grenade|sword|swords|napalm)',
      '(waffe|waffen|arma|armas|arme|armes|armi|оружие|武器|무기*)',
    ),
  },
  violence: {
    rows: words(
      '(violence|violent|kill someone|kill people|killing people|murder|murders|fistfight|assault|stab|stabbing|shoot someone|mass shooting|school shooting|torture|self-defence|self-defense|war crimes|massacre|terrorism|terrorist)',
      '(gewalt|violencia|violence|violenza|violência|насилие|暴力|폭력*)',
    ),
  },
  drugs: {
    rows: words(
      '(drugs|illegal drug|cocaine|heroin|weed|marijuana|cannabis|meth|methamphetamine|lsd|narcotics|ecstasy|opioids|fentanyl|get high)',
      '(drogen|drogas|drogues|droghe|наркотики|毒品|麻薬|마약*)',
    ),
  },
  alcohol: {
    rows: words(
      '(alcohol|alcoholic|beer|beers|wine|wines|vodka|whiskey|whisky|liquor|drunk|booze|cocktail|cocktails|rum|tequila|gin)',
      '(alkohol|bier|alcohol|cerveza|alcool|bière|birra|álcool|алкоголь|пиво|酒|술*)',
    ),
  },
  sex: {
    rows: words('(sex|sexual|porn|pornography|nude|nudes|erotic|explicit content)'),
  },
  gambling: {
    rows: words(
      '(gambling|casino|casinos|betting|bets|poker|lottery|slot machine|slot machines|roulette|blackjack|sports betting)',
    ),
  },
  programming: {
    rows: words(
      '(python|javascript|typescript|java|c++|golang|source code|coding|python script|programming|software|api|apis|json|csv|parse|parsing|function|functions|script|scripts|exception|syntax|variable|variables|stack trace|library|libraries|framework|sql|html|css|compile|compiler|debug|debugging|algorithm|github|regex|scrape|scraper|scrapes|scraping|web scraping)',
    ),
  },
  gardening: {
    rows: words(
      '(gardening|garden|gardens|plant|plants|flowers|seeds|soil|lawn|pruning|fertilizer|fertiliser|compost|watering|houseplants|shrubs|roses|tomato plants)',
    ),
  },
  fitness: {
    rows: words(
      '(fitness|workout|workouts|exercise|exercises|gym|push-ups|pushups|squats|running|jogging|yoga|cardio|weightlifting|weight lifting|muscle|muscles|stretching|strength training|training plan)',
    ),
  },
  sports: {
    local: true,
    rows: words(
      '(football|soccer|world cup|basketball|nba|nfl|baseball|tennis|olympics|olympic|cricket|rugby|hockey|golf|formula 1|premier league|champions league|super bowl|tournament|league)',
    ),
  },
  history: {
    local: true,
    rows: words(
      '(history|historical|world war|world war i|world war ii|ancient|medieval|empire|revolution|civil war|dynasty|century)',
    ),
  },
  science: {
    rows: words(
      '(chemistry|chemical|chemicals|physics|biology|molecule|molecules|atom|atoms|redox|chemical reaction|chemical reactions|periodic table|photosynthesis|evolution|genetics|dna|quantum)',
    ),
  },
  math: {
    rows: words(
      '(math|maths|mathematics|mathematical|equation|equations|algebra|geometry|calculus|derivative|derivatives|integral|integrals|theorem|fraction|fractions|probability|statistics|factoring|factorise|factorize|polynomial|trigonometry|pythagorean|arithmetic|solve for)',
    ),
  },
  cooking: {
    local: true,
    rows: words(
      '(cook|cooking|cooked|recipe|recipes|bake|baking|kitchen|ingredient|ingredients|boil|boiling|fry|frying|roast|roasting|grill|oven|dish|dishes|meal|meals|food|foods|sauce|soup|dessert|pasta|lasagna|egg|eggs|chicken|sourdough|dough|bread|pancake|pancakes|buttermilk|vegan|vegetarian|pizza|restaurant|restaurants|cuisine|breakfast|lunch|dinner|flour|spices|marinade|refreeze|salmon|fish|beef|pork|steak|vegetables|salad|cheese|rice|noodles|sushi|curry|cake|cookies|chocolate|pairs with|goes with|pairing)',
    ),
  },
  travel: {
    local: true,
    rows: words(
      '(travel|trip|trips|itinerary|hotel|hotels|flight|flights|visit|visiting|attraction|attractions|tour|tours|tourist|tourists|sightseeing|museum|museums|neighborhood|neighborhoods|neighbourhood|neighbourhoods|things to do|vacation|holiday|weekend getaway|landmark|landmarks)',
    ),
  },
  transport: {
    local: true,
    rows: words(
      '(subway|metro|bus|buses|train|trains|ferry|taxi|taxis|airport|airports|transport|transportation|transit|commute|uber|car rental)',
    ),
  },
  weather: {
    local: true,
    rows: words('(weather|forecast|rain|snow|sunny|temperature|climate|humidity|storm|hurricane)'),
  },
  entertainment: {
    local: true,
    rows: words(
      '(movie|movies|film|films|tv show|tv series|netflix|celebrity|celebrities|music|song|songs|album|concert|concerts|video game|video games|broadway|theater|theatre|musical|actor|actress|singer)',
    ),
  },
  finance: {
    rows: words(
      '(bank account|bank accounts|savings account|checking account|current account|debit card|credit card|bank card|card limit|money transfer|bank transfer|wire transfer|transfer limit|transfers|loan|loans|mortgage|mortgages|savings|deposit|deposits|account balance|payment|payments|overdraft|interest rate|standing order|direct debit|banking)',
    ),
  },
  tech: {
    rows: words(
      '(router|routers|wifi|wi-fi|modem|network|firmware|ethernet|bluetooth|laptop|smartphone|printer|device|devices)',
    ),
  },
  work: {
    rows: words(
      '(vacation days|paid leave|sick leave|payroll|benefits|onboarding|performance review|hiring|recruiting|employee handbook|timesheet|timesheets)',
    ),
  },
  shopping: {
    local: true,
    rows: words(
      '(my order|your order|the order|order status|order number|orders|shipping|shipment|delivery|deliveries|refund|refunds|return policy|invoice|invoices|parcel|tracking number|purchase|purchases|gift|shoes|checkout)',
    ),
  },
  writing: {
    rows: words(
      '(essay|essays|homework|term paper|book report|cover letter|short story|novel|poem|poems|article|articles|blog post)',
    ),
  },
};

/**
 * Cities, one per row (the first name is the one reported; the others are other names of the
 * same city). A prompt that keeps the assistant to one city makes a question about another place
 * off scope.
 */
export const CITIES: readonly PatternRow[] = words(
  '(new york|new york city|nyc)',
  '(los angeles|l.a.)',
  '(san francisco)',
  'chicago',
  'boston',
  '(washington dc|washington d.c.)',
  'miami',
  '(las vegas)',
  'seattle',
  'houston',
  'dallas',
  'atlanta',
  'philadelphia',
  '(new orleans)',
  'denver',
  'toronto',
  'montreal',
  'vancouver',
  '(mexico city)',
  'london',
  'paris',
  'berlin',
  'munich',
  'madrid',
  'barcelona',
  'rome',
  'milan',
  'venice',
  'florence',
  'lisbon',
  'amsterdam',
  'brussels',
  'vienna',
  'prague',
  'budapest',
  'warsaw',
  'dublin',
  'edinburgh',
  'copenhagen',
  'stockholm',
  'oslo',
  'helsinki',
  'athens',
  'istanbul',
  'moscow',
  '(saint petersburg|st. petersburg)',
  'dubai',
  'cairo',
  'tokyo',
  'kyoto',
  'osaka',
  'seoul',
  '(beijing|peking)',
  'shanghai',
  '(hong kong)',
  'singapore',
  'bangkok',
  'delhi',
  'mumbai',
  'sydney',
  'melbourne',
  '(rio de janeiro)',
  '(sao paulo|são paulo)',
  '(buenos aires)',
  'lima',
  'bogota',
  'nairobi',
  '(cape town)',
  'johannesburg',
  'marrakech',
);

/**
 * Countries, one per row. A country holds cities and states this table does not know to be
 * its own, so a prompt kept to one makes only another country off scope.
 */
export const COUNTRIES: readonly PatternRow[] = words(
  '(united states|usa|america)',
  'canada',
  'mexico',
  'brazil',
  'argentina',
  'peru',
  'colombia',
  '(united kingdom|england|scotland|wales|britain)',
  'ireland',
  'france',
  'germany',
  'spain',
  'portugal',
  'italy',
  'netherlands',
  'belgium',
  'switzerland',
  'austria',
  'poland',
  'greece',
  'sweden',
  'norway',
  'denmark',
  'finland',
  'russia',
  'ukraine',
  'china',
  'japan',
  '(south korea|korea)',
  'india',
  'thailand',
  'vietnam',
  'indonesia',
  'australia',
  '(new zealand)',
  'egypt',
  'morocco',
  'kenya',
  '(south africa)',
  'nigeria',
  'israel',
  'iran',
  'iraq',
  '(saudi arabia)',
);

/** US states that are not also common words or names: a state holds cities too. */
export const STATES: readonly PatternRow[] = words(
  'california',
  'texas',
  'florida',
  'nevada',
  'arizona',
  'colorado',
  'oregon',
  'alaska',
  'hawaii',
  'illinois',
  'ohio',
  'michigan',
  'massachusetts',
  '(new jersey)',
  'pennsylvania',
);
