import { anyOrder, type PatternTable } from '../categories.js';

/**
 * Instruction overrides in more languages (Polish, Czech, Croatian/Serbian/Bosnian, Dutch,
 * Turkish, Indonesian/Malay, Vietnamese, Hindi): the verb, the noun and the scope words, which
 * the pairing combines as it does in English, and requests for the prompt in Dutch, Polish and
 * Turkish. Verbs may follow their target (Turkish and Hindi put the verb last).
 */
export const MORE_LANGUAGES: PatternTable = {
  'override.verb': anyOrder([
    ['(zignoruj|zignorujcie|ignoruj|zapomnij|zapomnijcie|pomiń|nie zwracaj uwagi na)', 1],
    ['(ignorujte|zapomeň|zapomeňte|nevšímej si)', 1],
    ['(ignoriraj|ignorirajte|ignoriši|ignorisi|zaboravi|zaboravite|zanemari|zanemarite)', 1],
    ['(negeer|negeren|vergeet|vergeten)', 1],
    ['(yok say|görmezden gel|unut|boşver)', 1],
    ['(abaikan|lupakan|acuhkan)', 1],
    ['(bỏ qua|quên|phớt lờ|quên đi)', 1],
    ['(अनदेखा करो|अनदेखा करें|अनदेखा कर|नज़रअंदाज़ करो|नज़रअंदाज़ करें|भूल जाओ|भूल जाएं)', 1],
  ]),
  'override.noun': [
    [
      '(instrukcje|instrukcji|instrukcjach|instrukcjami|instrukcjom|polecenia|poleceń|poleceniach|zasady|zasad|zasadach|reguły|reguł|regułach)',
      1,
    ],
    ['(instrukce|pokyny|pravidla)', 1],
    ['(instrukcije|upute|uputstva|pravila|naredbe)', 1],
    ['(instructies|regels|opdrachten|aanwijzingen)', 1],
    ['(talimatları|talimatlar|talimatı|kuralları|komutları)', 1],
    ['(instruksi|perintah|aturan|petunjuk)', 1],
    ['(hướng dẫn|chỉ dẫn|chỉ thị|quy tắc|lệnh)', 1],
    ['(निर्देश|निर्देशों|नियम|नियमों)', 1],
  ],
  'override.scope': [
    [
      '(poprzednie|poprzednich|poprzednimi|wcześniejsze|wcześniejszych|powyższe|powyższych|wszystkie|wszystkich|swoje|swoich|twoje|twoich)',
      0.95,
    ],
    ['(předchozí|všechny|své|tvé|výše uvedené)', 0.95],
    ['(sve|prethodne|svoje|tvoje|ranije)', 0.95],
    ['(vorige|eerdere|voorgaande|bovenstaande|alle|jouw)', 0.95],
    ['(önceki|tüm|bütün|yukarıdaki)', 0.95],
    ['(sebelumnya|semua|di atas)', 0.95],
    ['(trước đó|tất cả|ở trên)', 0.95],
    ['(पिछले|सभी|पहले के|ऊपर के)', 0.95],
  ],
  'reveal.verb': anyOrder([
    ['(toon|toon me|laat zien|laat me zien|herhaal|geef me|wat zijn|wat is|schrijf|print)', 1],
    ['(pokaż|pokaz|powtórz|wypisz|wyświetl|podaj|jakie są|jaki jest)', 1],
    ['(göster|tekrarla|yazdır|yaz|söyle|nedir|nelerdir)', 1],
  ]),
  'reveal.noun': [
    [
      '(systeemprompt|systeeminstructies|prompt systemowy|systemowe instrukcje|sistem istemi|sistem talimatları)',
      1,
    ],
    ['(instructies|instrukcje|instrukcji|talimatların|talimatları|talimatlar)', 0.9],
    ['(regels|zasady|kuralların|kuralları)', 0.8],
  ],
  'reveal.scope': [
    ['(je|jouw|uw|twoje|twoich|swoje|senin)', 1],
    [
      '(oorspronkelijke|originele|verborgen|vorige|oryginalne|początkowe|ukryte|poprzednie|orijinal|gizli|önceki|ilk)',
      0.95,
    ],
  ],
};
