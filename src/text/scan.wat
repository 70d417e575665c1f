;; Lexicon.scan in WebAssembly (wasm-scanner.ts is the JS side; lexicon.ts the reference scanner
;; in JS, which this module must agree with exactly: a property test compares them).
;;
;; One call scans a whole text, copied into memory as UTF-16 code units (or, when every unit is
;; under 256, as bytes, which $widen turns into units first: see wasm-scanner.ts), followed by a
;; sentinel unit that is neither a word character nor a skipped one, so the word loop needs no
;; bounds check. Per code unit, an `info` table (one per fold table) gives the folded unit (low
;; 16 bits; 0: skipped), its class (bits 16-17: 0 other, 1 word, 2 unbounded, 3 space) and, in
;; bit 31, whether it is a word character outside ASCII.
;;
;; Words are hashed as they are read (FNV-1a over folded units, as hashUnits in word-hash.ts). At
;; the end of a word the module looks up the pair (previous word, this word) and the word alone in
;; the lexicon's hash tables, behind one-bit-per-hash filters that rule out most words with one
;; load. Prefix entries (`optimi*`): while a word is read, each letter's hash is tested against a
;; byte filter of the prefix entries' hashes, without a branch; only when some letter passed is
;; the word read again, in order, probing the prefix table at each length (and, in lexicons with
;; `*stem` entries, checking those at each letter). A hash hit is verified against the pattern's
;; folded units (the same rules as Lexicon's #matchAt), and counted per pattern: first position,
;; occurrences, and the list of distinct patterns in order of first detection, which is what the
;; JS side reads at the end. Events happen in the JS scanner's order, so hits come out in the
;; same order.
;;
;; Speed notes (measured on the tier lexicon, 8,000 characters): the word loops are the hot path
;; (per letter: a load of the unit and of its info, the hash, an OR that notes a letter outside
;; ASCII (the word is counted again, out of line, only then), and the prefix filter when the
;; lexicon has prefix entries), each a copy without the work its lexicons do not need. Per word,
;; the usual step to the next word (one space) skips the outer loop. Everything rarer is out of line. V8 treats every register as clobbered by a call and
;; spills what is live around it, so nothing the loops reach in the common case is a call: the
;; filters are tested inline, and calls happen only when a filter says "maybe". For the same
;; reason the function keeps few values in locals (counters of rare events live in the result
;; struct), and a skipped unit is handled by a loop of its own, entered only when one occurs.
(module
  (memory (export "memory") 2)

  ;; The result of the last scan, at address 0 (offsets also in wasm-scanner.ts): 0 words,
  ;; 4 numbers, 8 unbounded, 12 nonAscii, 16 lines (line feeds), 20 questions, 24 numbered lines,
  ;; 28 bullet lines, 32 hit count.
  ;;
  ;; Lexicon block (at `lex`, built by wasm-scanner.ts), i32 fields:
  ;;  0 exact table   4 its mask    8 pair table   12 its mask   16 prefix table   20 its mask
  ;; 24 prefix lengths (bit n: a prefix entry of n letters, n < 32)
  ;; 28 prefix byte filter (65,536 bytes, at hash >>> 16: a constant shift and no mask, one
  ;;    instruction and one register less per letter): bit 0 where a prefix entry's hash falls,
  ;;    bit 1 where the hash of the first three letters of an entry longer than that falls
  ;;    32 (unused)
  ;; 36 exact filter (bits)  40 its shift   44 pair filter (bits)  48 its shift
  ;; 52 anywhere bit set (65536 bits, by folded unit; 0 when none)
  ;; 56 anywhere table    60 its mask
  ;; 64 flags: 1 anywhere entries, 2 anywhere entries that start with a letter (`*stem`),
  ;;           4 prefix entries
  ;; 68 patterns (8 bytes each: units address, and unit count << 3 | 1 left-bounded
  ;;    | 2 right-bounded | 4 letters only, left-bounded: a one-word entry, or a prefix entry)
  ;; 72 (unused)   76 stamps   80 occurrences   84 first positions
  ;; 88 hits (pattern ids)   92 generation   96 pattern count
  ;; A slot of the exact, pair and prefix tables is 32 bytes: key (a hash), the address of its
  ;; pattern list (0: empty slot), its first pattern's record (units address, meta), that
  ;; pattern's id, and the list's length; a slot
  ;; of the anywhere table 8 bytes: key (a folded unit) and list. A list is its length, then
  ;; pattern ids (i32).

  ;; The scan in progress (set by $scan; read by the rare paths).
  (global $lex (mut i32) (i32.const 0))
  (global $info (mut i32) (i32.const 0))
  (global $textStart (mut i32) (i32.const 0))
  (global $textEnd (mut i32) (i32.const 0))
  (global $base (mut i32) (i32.const 0))
  (global $generation (mut i32) (i32.const 0))
  (global $hitCount (mut i32) (i32.const 0))
  ;; Bytes from a text unit to its folded copy (see $probe).
  (global $folded (mut i32) (i32.const 0))
  ;; 0x20 when the info table makes U+0020 a space (not a line feed), else -1 (see the word's end).
  (global $space (mut i32) (i32.const 0))

  ;; The info of the unit at byte address `at`.
  (func $infoAt (param $at i32) (result i32)
    (i32.load (i32.add (global.get $info) (i32.shl (i32.load16_u (local.get $at)) (i32.const 2)))))

  ;; Matches pattern `p` at byte address `at` (Lexicon's #matchAt) and, when it matches, counts
  ;; the occurrence. Skipped units are looked through; a separator unit (0) takes one or more
  ;; spaces or hyphens; a right-bounded pattern must not be followed by a word character.
  (func $tryPattern (param $p i32) (param $at i32)
    (local $record i32) (local $units i32) (local $unitsEnd i32) (local $want i32) (local $v i32)
    (local $j i32) (local $end i32) (local $info i32)
    (local.set $end (global.get $textEnd))
    (local.set $info (global.get $info))
    (local.set $record (i32.add (i32.load offset=68 (global.get $lex)) (i32.shl (local.get $p) (i32.const 3))))
    (local.set $units (i32.load (local.get $record)))
    (local.set $unitsEnd (i32.add (local.get $units)
      (i32.shl (i32.shr_u (i32.load offset=4 (local.get $record)) (i32.const 3)) (i32.const 1))))
    (local.set $j (local.get $at))
    (loop $unit
      (if (i32.lt_u (local.get $units) (local.get $unitsEnd))
        (then
          (local.set $want (i32.load16_u (local.get $units)))
          (local.set $units (i32.add (local.get $units) (i32.const 2)))
          ;; The next unit that is not skipped.
          (loop $skip
            (if (i32.ge_u (local.get $j) (local.get $end)) (then (return)))
            (local.set $v (i32.load (i32.add (local.get $info)
              (i32.shl (i32.load16_u (local.get $j)) (i32.const 2)))))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))
            (br_if $skip (i32.eqz (local.get $v))))
          (br_if $unit (i32.eq (i32.and (local.get $v) (i32.const 0xffff)) (local.get $want)))
          (if (local.get $want) (then (return)))
          ;; A separator: white space or a hyphen, then any more of them (or skipped units).
          (if (i32.eqz (call $isSeparator (local.get $v))) (then (return)))
          (block $separated
            (loop $more
              (br_if $separated (i32.ge_u (local.get $j) (local.get $end)))
              (local.set $v (i32.load (i32.add (local.get $info)
                (i32.shl (i32.load16_u (local.get $j)) (i32.const 2)))))
              (br_if $separated
                (i32.and (i32.ne (local.get $v) (i32.const 0))
                  (i32.eqz (call $isSeparator (local.get $v)))))
              (local.set $j (i32.add (local.get $j) (i32.const 2)))
              (br $more)))
          (br $unit))))
    (if (i32.and (i32.load offset=4 (local.get $record)) (i32.const 2))
      (then
        (block $bounded
          (loop $next
            (br_if $bounded (i32.ge_u (local.get $j) (local.get $end)))
            (local.set $v (i32.load (i32.add (local.get $info)
              (i32.shl (i32.load16_u (local.get $j)) (i32.const 2)))))
            (if (local.get $v)
              (then
                (if (i32.eq (i32.and (local.get $v) (i32.const 0x30000)) (i32.const 0x10000))
                  (then (return)))
                (br $bounded)))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))
            (br $next)))))
    (call $count (local.get $p) (local.get $at)))

  ;; Counts an occurrence of pattern `p` found at `at`: its first position and the list of hits
  ;; when it is new in this scan, its occurrences otherwise.
  (func $count (param $p i32) (param $at i32)
    (local $lex i32) (local $stamp i32) (local $occ i32)
    (local.set $lex (global.get $lex))
    (local.set $stamp (i32.add (i32.load offset=76 (local.get $lex)) (i32.shl (local.get $p) (i32.const 2))))
    (local.set $occ (i32.add (i32.load offset=80 (local.get $lex)) (i32.shl (local.get $p) (i32.const 2))))
    (if (i32.eq (i32.load (local.get $stamp)) (global.get $generation))
      (then
        (i32.store (local.get $occ) (i32.add (i32.load (local.get $occ)) (i32.const 1)))
        (return)))
    (i32.store (local.get $stamp) (global.get $generation))
    (i32.store (local.get $occ) (i32.const 1))
    (i32.store
      (i32.add (i32.load offset=84 (local.get $lex)) (i32.shl (local.get $p) (i32.const 2)))
      (i32.add (global.get $base)
        (i32.shr_u (i32.sub (local.get $at) (global.get $textStart)) (i32.const 1))))
    (i32.store
      (i32.add (i32.load offset=88 (local.get $lex)) (i32.shl (global.get $hitCount) (i32.const 2)))
      (local.get $p))
    (global.set $hitCount (i32.add (global.get $hitCount) (i32.const 1))))

  ;; Whether unit info `v` is a separator inside a phrase (white space or a hyphen).
  (func $isSeparator (param $v i32) (result i32)
    (i32.or
      (i32.eq (i32.and (local.get $v) (i32.const 0xffff)) (i32.const 0x2d))
      (i32.eq (i32.shr_u (local.get $v) (i32.const 16)) (i32.const 3))))

  ;; Looks key `h` up in the table at [table, mask] and tries its patterns at `at`. `end` is where
  ;; the letters looked up at `at` end, with no skipped unit among them (0: unknown, or not a
  ;; lookup of letters): a letters-only pattern (a one-word entry, or a prefix entry) of that
  ;; length is verified against their folded copy (an 8-byte compare for most words), and a
  ;; repeated hit counted inline; other patterns, and letters with skipped units among them, the
  ;; general way. A slot (32 bytes) holds its key, its pattern list, the first pattern's record
  ;; and id, and the number of patterns.
  (func $probe (param $table i32) (param $mask i32) (param $h i32) (param $at i32) (param $end i32)
    (local $slot i32) (local $list i32) (local $left i32) (local $p i32) (local $meta i32)
    (local $a i32) (local $b i32) (local $n i32) (local $record i32)
    (local.set $slot (i32.and (local.get $h) (local.get $mask)))
    (loop $find
      (local.set $record (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 5))))
      (local.set $list (i32.load offset=4 (local.get $record)))
      (if (i32.eqz (local.get $list)) (then (return)))
      (if (i32.ne (i32.load (local.get $record)) (local.get $h))
        (then
          (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
          (br $find))))
    ;; The first pattern from the slot; `list` at its id in the list, `left` patterns to try.
    (local.set $p (i32.load offset=16 (local.get $record)))
    (local.set $left (i32.load offset=20 (local.get $record)))
    (local.set $list (i32.add (local.get $list) (i32.const 4)))
    (local.set $record (i32.add (local.get $record) (i32.const 8)))
    (loop $next
      (local.set $meta (i32.load offset=4 (local.get $record)))
      (block $tried
        (if (i32.and
              (i32.ne (i32.and (local.get $meta) (i32.const 4)) (i32.const 0))
              (i32.eq (i32.sub (local.get $end) (local.get $at))
                (i32.shl (i32.shr_u (local.get $meta) (i32.const 3)) (i32.const 1))))
          (then
            (local.set $a (i32.add (local.get $at) (global.get $folded)))
            (local.set $b (i32.load (local.get $record)))
            (local.set $n (i32.sub (local.get $end) (local.get $at)))
            (block $differ
              (loop $chunk
                (if (i32.gt_u (local.get $n) (i32.const 8))
                  (then
                    (br_if $differ (i64.ne (i64.load (local.get $a)) (i64.load (local.get $b))))
                    (local.set $a (i32.add (local.get $a) (i32.const 8)))
                    (local.set $b (i32.add (local.get $b) (i32.const 8)))
                    (local.set $n (i32.sub (local.get $n) (i32.const 8)))
                    (br $chunk))))
              ;; The last 2 to 8 bytes.
              (br_if $differ (i64.ne
                (i64.and (i64.xor (i64.load (local.get $a)) (i64.load (local.get $b)))
                  (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.shl (i32.sub (i32.const 8) (local.get $n)) (i32.const 3)))))
                (i64.const 0)))
              ;; A pattern seen before in this scan: one more occurrence.
              (local.set $a (i32.shl (local.get $p) (i32.const 2)))
              (if (i32.eq (i32.load (i32.add (i32.load offset=76 (global.get $lex)) (local.get $a)))
                    (global.get $generation))
                (then
                  (local.set $a (i32.add (i32.load offset=80 (global.get $lex)) (local.get $a)))
                  (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (i32.const 1)))
                  (br $tried)))
              (call $count (local.get $p) (local.get $at)))
            (br $tried)))
        (call $tryPattern (local.get $p) (local.get $at)))
      (local.set $left (i32.sub (local.get $left) (i32.const 1)))
      (if (local.get $left)
        (then
          (local.set $list (i32.add (local.get $list) (i32.const 4)))
          (local.set $p (i32.load (local.get $list)))
          (local.set $record (i32.add (i32.load offset=68 (global.get $lex)) (i32.shl (local.get $p) (i32.const 3))))
          (br $next)))))

  ;; Whether folded unit `f` starts an `anywhere` entry.
  (func $startsAnywhere (param $f i32) (result i32)
    (i32.and
      (i32.shr_u
        (i32.load8_u (i32.add (i32.load offset=52 (global.get $lex)) (i32.shr_u (local.get $f) (i32.const 3))))
        (i32.and (local.get $f) (i32.const 7)))
      (i32.const 1)))

  ;; Whether the last unit before `at` that is not skipped is a word character.
  (func $wordBefore (param $at i32) (result i32)
    (local $v i32)
    (block $none
      (loop $back
        (br_if $none (i32.le_u (local.get $at) (global.get $textStart)))
        (local.set $at (i32.sub (local.get $at) (i32.const 2)))
        (local.set $v (call $infoAt (local.get $at)))
        (br_if $back (i32.eqz (local.get $v)))
        (return (i32.eq (i32.and (local.get $v) (i32.const 0x30000)) (i32.const 0x10000)))))
    (i32.const 0))

  ;; Checks the `anywhere` patterns that start with folded unit `f` at `at` (Lexicon's
  ;; #tryAnywhere): a left-bounded one only where no word character comes before. The next
  ;; unit's folded form and whether a word character comes before are the same for every pattern
  ;; of the list: read once (the latter when a left-bounded pattern first asks), not per pattern
  ;; (a run of dashes in a Markdown table tries each pattern that starts with `-` at every dash).
  (func $anywhere (param $f i32) (param $at i32)
    (local $lex i32) (local $table i32) (local $mask i32) (local $slot i32) (local $packed i32)
    (local $list i32) (local $listEnd i32) (local $p i32) (local $record i32) (local $meta i32)
    (local $want i32) (local $next i32) (local $before i32)
    (local.set $lex (global.get $lex))
    (local.set $table (i32.load offset=56 (local.get $lex)))
    (local.set $mask (i32.load offset=60 (local.get $lex)))
    (local.set $slot (i32.and (local.get $f) (local.get $mask)))
    (loop $find
      (local.set $packed (i32.load offset=4
        (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 3)))))
      (if (i32.eqz (local.get $packed)) (then (return)))
      (if (i32.ne (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 3))))
            (local.get $f))
        (then
          (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
          (br $find))))
    (local.set $list (local.get $packed))
    (local.set $listEnd (i32.add (local.get $list) (i32.shl (i32.load (local.get $list)) (i32.const 2))))
    (local.set $next
      (i32.and (call $infoAt (i32.add (local.get $at) (i32.const 2))) (i32.const 0xffff)))
    (local.set $before (i32.const -1)) ;; not read yet
    (loop $next
      (local.set $list (i32.add (local.get $list) (i32.const 4)))
      (local.set $p (i32.load (local.get $list)))
      (local.set $record (i32.add (i32.load offset=68 (local.get $lex)) (i32.shl (local.get $p) (i32.const 3))))
      (local.set $meta (i32.load offset=4 (local.get $record)))
      (block $skip
        (if (i32.and (local.get $meta) (i32.const 1))
          (then
            (if (i32.lt_s (local.get $before) (i32.const 0))
              (then (local.set $before (call $wordBefore (local.get $at)))))
            (br_if $skip (local.get $before))))
        ;; One unit, bounded on neither side (`=`): it is the unit at `at`.
        (if (i32.eq (local.get $meta) (i32.const 8))
          (then
            (call $count (local.get $p) (local.get $at))
            (br $skip)))
        ;; Most tries end at the second unit: compared here with the next unit's folded form
        ;; when both are plain units (not a separator, not a skipped unit; the unit after the
        ;; text is the sentinel, which matches nothing), before the general match.
        (if (i32.ge_u (local.get $meta) (i32.const 16))
          (then
            (local.set $want (i32.load16_u offset=2 (i32.load (local.get $record))))
            (br_if $skip
              (i32.and (i32.and (i32.ne (local.get $want) (i32.const 0)) (i32.ne (local.get $next) (i32.const 0)))
                (i32.ne (local.get $want) (local.get $next))))))
        (call $tryPattern (local.get $p) (local.get $at)))
      (br_if $next (i32.lt_u (local.get $list) (local.get $listEnd)))))

  ;; Reads the word in [at, end) again, in order, from the folded copy the word loop wrote (0 where
  ;; a unit is skipped): at each length n < 32 that some prefix entry has and whose hash passes
  ;; the prefix filter, probes the prefix table (with the end of the n letters when no unit was
  ;; skipped before them, so that $probe compares the folded copy); at each letter that starts an
  ;; `anywhere` entry (`*stem` lexicons), checks those. Called only when the word loop's filters
  ;; say one of them may match.
  (func $rewalk (param $at i32) (param $end i32)
    (local $lex i32) (local $j i32) (local $f i32) (local $h i32) (local $n i32) (local $flags i32)
    (local $lengths i32) (local $filter i32) (local $folded i32)
    (local.set $lex (global.get $lex))
    (local.set $flags (i32.load offset=64 (local.get $lex)))
    (local.set $lengths (i32.load offset=24 (local.get $lex)))
    (local.set $filter (i32.load offset=28 (local.get $lex)))
    (local.set $folded (global.get $folded))
    (local.set $h (i32.const 0x811c9dc5))
    (local.set $j (local.get $at))
    (loop $letter
      (if (i32.ge_u (local.get $j) (local.get $end)) (then (return)))
      (local.set $f (i32.load16_u (i32.add (local.get $j) (local.get $folded))))
      (local.set $j (i32.add (local.get $j) (i32.const 2)))
      (br_if $letter (i32.eqz (local.get $f)))
      (local.set $h (i32.mul (i32.xor (local.get $h) (local.get $f)) (i32.const 0x01000193)))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (if (i32.and
            (i32.and (i32.lt_u (local.get $n) (i32.const 32))
              (i32.shr_u (local.get $lengths) (local.get $n)))
            (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $h) (i32.const 16)))))
        (then
          (call $probe (i32.load offset=16 (local.get $lex)) (i32.load offset=20 (local.get $lex))
            (local.get $h) (local.get $at)
            (select (local.get $j) (i32.const 0)
              (i32.eq (i32.sub (local.get $j) (local.get $at)) (i32.shl (local.get $n) (i32.const 1)))))))
      (if (i32.and (local.get $flags) (i32.const 2))
        (then
          (if (call $startsAnywhere (local.get $f))
            (then (call $anywhere (local.get $f) (i32.sub (local.get $j) (i32.const 2)))))))
      (br $letter)))

  ;; Adds to the result the word characters outside ASCII (bit 31 of their info) in [at, end):
  ;; the word loops only note that a word has some.
  (func $countNonAscii (param $at i32) (param $end i32)
    (local $n i32)
    (loop $unit
      (local.set $n (i32.add (local.get $n) (i32.shr_u (call $infoAt (local.get $at)) (i32.const 31))))
      (local.set $at (i32.add (local.get $at) (i32.const 2)))
      (br_if $unit (i32.lt_u (local.get $at) (local.get $end))))
    (i32.store offset=12 (i32.const 0) (i32.add (i32.load offset=12 (i32.const 0)) (local.get $n))))

  ;; Whether a line that starts at `at` with a digit is a numbered item: up to four digits, then
  ;; `.`, `)`, `、` or `．`, then the end, a space or a tab (isNumberedItem in lexicon.ts).
  (func $numbered (param $at i32) (result i32)
    (local $j i32) (local $c i32) (local $end i32)
    (local.set $end (global.get $textEnd))
    (local.set $j (local.get $at))
    (block $digits
      (loop $digit
        (br_if $digits (i32.ge_u (local.get $j) (local.get $end)))
        (br_if $digits (i32.ge_u (i32.sub (local.get $j) (local.get $at)) (i32.const 8)))
        (br_if $digits (i32.ge_u (i32.sub (i32.load16_u (local.get $j)) (i32.const 0x30)) (i32.const 10)))
        (local.set $j (i32.add (local.get $j) (i32.const 2)))
        (br $digit)))
    (if (i32.ge_u (local.get $j) (local.get $end)) (then (return (i32.const 0))))
    (local.set $c (i32.load16_u (local.get $j)))
    (if (i32.eqz
          (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 0x2e)) (i32.eq (local.get $c) (i32.const 0x29)))
            (i32.or (i32.eq (local.get $c) (i32.const 0x3001)) (i32.eq (local.get $c) (i32.const 0xff0e)))))
      (then (return (i32.const 0))))
    (local.set $j (i32.add (local.get $j) (i32.const 2)))
    (if (i32.ge_u (local.get $j) (local.get $end)) (then (return (i32.const 1))))
    (local.set $c (i32.load16_u (local.get $j)))
    (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x09))))

  ;; A word starts at `at` with an ASCII digit: counts a number, and a numbered line when the word
  ;; starts a line.
  (func $digitWord (param $at i32) (param $lineStart i32)
    (i32.store offset=4 (i32.const 0) (i32.add (i32.load offset=4 (i32.const 0)) (i32.const 1)))
    (if (local.get $lineStart)
      (then
        (i32.store offset=24 (i32.const 0)
          (i32.add (i32.load offset=24 (i32.const 0)) (call $numbered (local.get $at)))))))

  ;; Widens `count` bytes at byte address `text` into as many UTF-16 units there, in place: from
  ;; the end, so that no byte is overwritten before it is read (unit i goes to 2i, at or after
  ;; byte i); the last `count` mod 16 one at a time, then 16 at a time. Exported for a text held
  ;; whole (see wasm-scanner.ts).
  (func $widen (export "widen") (param $text i32) (param $count i32)
    (local $i i32) (local $bytes v128)
    (local.set $i (local.get $count))
    (block $blocks
      (loop $tail
        (br_if $blocks (i32.eqz (i32.and (local.get $i) (i32.const 15))))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (i32.store16 (i32.add (local.get $text) (i32.shl (local.get $i) (i32.const 1)))
          (i32.load8_u (i32.add (local.get $text) (local.get $i))))
        (br $tail)))
    (block $done
      (loop $block
        (br_if $done (i32.eqz (local.get $i)))
        (local.set $i (i32.sub (local.get $i) (i32.const 16)))
        (local.set $bytes (v128.load align=1 (i32.add (local.get $text) (local.get $i))))
        (v128.store offset=16 align=1 (i32.add (local.get $text) (i32.shl (local.get $i) (i32.const 1)))
          (i16x8.extend_high_i8x16_u (local.get $bytes)))
        (v128.store align=1 (i32.add (local.get $text) (i32.shl (local.get $i) (i32.const 1)))
          (i16x8.extend_low_i8x16_u (local.get $bytes)))
        (br $block))))

  ;; Scans `count` units at byte address `text` (followed by a sentinel unit) with lexicon block
  ;; `lex` and info table `info`; `base` is the text index of the first unit; `bytes` 1 when the
  ;; text is there as Latin-1 bytes, to widen first. Writes the result struct at address 0; returns
  ;; the number of distinct patterns found.
  ;;
  ;; Few values stay in locals (V8 spills the rest, and spills in the word loops cost more than
  ;; the loops themselves): the counters of rare events live in the result struct.
  (func (export "scan") (param $lex i32) (param $info i32) (param $text i32) (param $count i32)
    (param $base i32) (param $folded i32) (param $bytes i32) (result i32)
    (local $i i32) (local $end i32) (local $v i32) (local $f i32) (local $h i32)
    (local $any i32) (local $mask i32) (local $filter i32) (local $mode i32)
    (local $wordStart i32) (local $prevStart i32) (local $prevHash i32) (local $lineStart i32)
    (if (local.get $bytes) (then (call $widen (local.get $text) (local.get $count))))
    (local.set $end (i32.add (local.get $text) (i32.shl (local.get $count) (i32.const 1))))
    (global.set $lex (local.get $lex))
    (global.set $info (local.get $info))
    (global.set $textStart (local.get $text))
    (global.set $textEnd (local.get $end))
    (global.set $base (local.get $base))
    (global.set $folded (local.get $folded))
    (global.set $space
      (select (i32.const 0x20) (i32.const -1)
        (i32.eq (i32.and (i32.load offset=128 (local.get $info)) (i32.const 0x3ffff)) (i32.const 0x30020))))
    (global.set $hitCount (i32.const 0))
    ;; Stores, not memory.fill: V8 runs memory.fill out of line, in a call costing more than these.
    (v128.store (i32.const 0) (v128.const i64x2 0 0))
    (v128.store (i32.const 16) (v128.const i64x2 0 0))
    (i32.store (i32.const 32) (i32.const 0))
    ;; A new generation of stamps; when the counter wraps, clear them all.
    (global.set $generation (i32.add (i32.load offset=92 (local.get $lex)) (i32.const 1)))
    (if (i32.eqz (global.get $generation))
      (then
        (memory.fill (i32.load offset=76 (local.get $lex)) (i32.const 0)
          (i32.shl (i32.load offset=96 (local.get $lex)) (i32.const 2)))
        (global.set $generation (i32.const 1))))
    (i32.store offset=92 (local.get $lex) (global.get $generation))
    ;; Which word loop: 0 plain, 1 with the prefix filter (for a word's first three letters, and
    ;; for the rest when they start some longer prefix entry: plain otherwise), 2 with `*stem`
    ;; entries as well.
    (local.set $mode
      (select (i32.const 2)
        (i32.ne (i32.and (i32.load offset=64 (local.get $lex)) (i32.const 4)) (i32.const 0))
        (i32.and (i32.load offset=64 (local.get $lex)) (i32.const 2))))
    (local.set $filter (i32.load offset=28 (local.get $lex)))
    (local.set $prevStart (i32.const -1))
    (local.set $lineStart (i32.const 1))
    (local.set $i (local.get $text))
    (block $done
      (loop $outer
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
        (if (i32.eq (i32.and (local.get $v) (i32.const 0x30000)) (i32.const 0x10000))
          (then
           (loop $word
            ;; A word starts.
            (local.set $wordStart (local.get $i))
            (i32.store offset=0 (i32.const 0) (i32.add (i32.load offset=0 (i32.const 0)) (i32.const 1)))
            (if (i32.lt_u (i32.sub (i32.load16_u (local.get $i)) (i32.const 0x30)) (i32.const 10))
              (then (call $digitWord (local.get $i) (local.get $lineStart))))
            (local.set $lineStart (i32.const 0))
            (local.set $h (i32.const 0x811c9dc5))
            (local.set $mask (i32.const 0))
            (local.set $any (i32.const 0))
            ;; The word loops: each takes a letter (counting it when it is not ASCII: bit 31 of
            ;; its info), then the next unit. Skipped units are looked through, out of the hot
            ;; path; any other unit ends the word (the sentinel ends the text's last word).
            (block $wordEnd
              (block $toPlain
              (br_if $toPlain (i32.eqz (local.get $mode)))
              (if (i32.eq (local.get $mode) (i32.const 1))
                (then
                  ;; The first letter out of the loop: it needs the filter only in lexicons with
                  ;; one-letter prefix entries.
                  (local.set $any (local.get $v))
                  (local.set $h (i32.mul (i32.xor (local.get $h) (i32.and (local.get $v) (i32.const 0xffff)))
                    (i32.const 0x01000193)))
                  (if (i32.and (i32.load offset=24 (local.get $lex)) (i32.const 2))
                    (then
                      (local.set $mask
                        (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $h) (i32.const 16)))))))
                  (i32.store16 (i32.add (local.get $i) (local.get $folded)) (local.get $v))
                  (local.set $i (i32.add (local.get $i) (i32.const 2)))
                  (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                  (if (i32.eqz (i32.and (local.get $v) (i32.const 0x40000000)))
                    (then
                      (br_if $wordEnd (local.get $v))
                      (loop $skip
                        (i32.store16 (i32.add (local.get $i) (local.get $folded)) (i32.const 0))
                        (local.set $i (i32.add (local.get $i) (i32.const 2)))
                        (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                        (br_if $skip (i32.eqz (local.get $v))))
                      (br_if $wordEnd (i32.eqz (i32.and (local.get $v) (i32.const 0x40000000))))))
                  ;; The second and third letters out of the loop as well. After the third, only a word
                  ;; whose first three letters start some prefix entry of four letters or more (bit 1
                  ;; of the filter byte of their hash) needs the filter: the others take the plain loop.
                  (local.set $any (i32.or (local.get $any) (local.get $v)))
                  (local.set $h (i32.mul (i32.xor (local.get $h) (i32.and (local.get $v) (i32.const 0xffff)))
                    (i32.const 0x01000193)))
                  (local.set $mask (i32.or (local.get $mask)
                    (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $h) (i32.const 16))))))
                  (i32.store16 (i32.add (local.get $i) (local.get $folded)) (local.get $v))
                  (local.set $i (i32.add (local.get $i) (i32.const 2)))
                  (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                  (if (i32.eqz (i32.and (local.get $v) (i32.const 0x40000000)))
                    (then
                      (br_if $wordEnd (local.get $v))
                      (loop $skip
                        (i32.store16 (i32.add (local.get $i) (local.get $folded)) (i32.const 0))
                        (local.set $i (i32.add (local.get $i) (i32.const 2)))
                        (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                        (br_if $skip (i32.eqz (local.get $v))))
                      (br_if $wordEnd (i32.eqz (i32.and (local.get $v) (i32.const 0x40000000))))))
                  (local.set $any (i32.or (local.get $any) (local.get $v)))
                  (local.set $h (i32.mul (i32.xor (local.get $h) (i32.and (local.get $v) (i32.const 0xffff)))
                    (i32.const 0x01000193)))
                  (local.set $f (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $h) (i32.const 16)))))
                  (local.set $mask (i32.or (local.get $mask) (local.get $f)))
                  (i32.store16 (i32.add (local.get $i) (local.get $folded)) (local.get $v))
                  (local.set $i (i32.add (local.get $i) (i32.const 2)))
                  (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                  (if (i32.eqz (i32.and (local.get $v) (i32.const 0x40000000)))
                    (then
                      (br_if $wordEnd (local.get $v))
                      (loop $skip
                        (i32.store16 (i32.add (local.get $i) (local.get $folded)) (i32.const 0))
                        (local.set $i (i32.add (local.get $i) (i32.const 2)))
                        (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                        (br_if $skip (i32.eqz (local.get $v))))
                      (br_if $wordEnd (i32.eqz (i32.and (local.get $v) (i32.const 0x40000000))))))
                  (br_if $toPlain (i32.eqz (i32.and (local.get $f) (i32.const 2))))
                  ;; Unrolled twice: V8 checks the stack once per loop iteration.
                  (loop $prefixed
                    (local.set $any (i32.or (local.get $any) (local.get $v)))
                    (local.set $h (i32.mul (i32.xor (local.get $h) (i32.and (local.get $v) (i32.const 0xffff)))
                      (i32.const 0x01000193)))
                    (local.set $mask (i32.or (local.get $mask)
                      (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $h) (i32.const 16))))))
                    (i32.store16 (i32.add (local.get $i) (local.get $folded)) (local.get $v))
                    (local.set $i (i32.add (local.get $i) (i32.const 2)))
                    (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                    (if (i32.eqz (i32.and (local.get $v) (i32.const 0x40000000)))
                      (then
                        (br_if $wordEnd (local.get $v))
                        (loop $skip
                          (i32.store16 (i32.add (local.get $i) (local.get $folded)) (i32.const 0))
                          (local.set $i (i32.add (local.get $i) (i32.const 2)))
                          (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                          (br_if $skip (i32.eqz (local.get $v))))
                        (br_if $wordEnd (i32.eqz (i32.and (local.get $v) (i32.const 0x40000000))))))
                    (local.set $any (i32.or (local.get $any) (local.get $v)))
                    (local.set $h (i32.mul (i32.xor (local.get $h) (i32.and (local.get $v) (i32.const 0xffff)))
                      (i32.const 0x01000193)))
                    (local.set $mask (i32.or (local.get $mask)
                      (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $h) (i32.const 16))))))
                    (i32.store16 (i32.add (local.get $i) (local.get $folded)) (local.get $v))
                    (local.set $i (i32.add (local.get $i) (i32.const 2)))
                    (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                    (br_if $prefixed (i32.and (local.get $v) (i32.const 0x40000000)))
                    (br_if $wordEnd (local.get $v))
                    (loop $skip
                      (i32.store16 (i32.add (local.get $i) (local.get $folded)) (i32.const 0))
                      (local.set $i (i32.add (local.get $i) (i32.const 2)))
                      (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                      (br_if $skip (i32.eqz (local.get $v))))
                    (br_if $prefixed (i32.and (local.get $v) (i32.const 0x40000000)))
                    (br $wordEnd))))
              (loop $stems
                (local.set $any (i32.or (local.get $any) (local.get $v)))
                (local.set $h (i32.mul (i32.xor (local.get $h) (i32.and (local.get $v) (i32.const 0xffff)))
                  (i32.const 0x01000193)))
                (local.set $mask (i32.or (local.get $mask)
                  (i32.or
                    (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $h) (i32.const 16))))
                    (call $startsAnywhere (i32.and (local.get $v) (i32.const 0xffff))))))
                (i32.store16 (i32.add (local.get $i) (local.get $folded)) (local.get $v))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                (br_if $stems (i32.and (local.get $v) (i32.const 0x40000000)))
                (br_if $wordEnd (local.get $v))
                (loop $skip
                  (i32.store16 (i32.add (local.get $i) (local.get $folded)) (i32.const 0))
                  (local.set $i (i32.add (local.get $i) (i32.const 2)))
                  (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                  (br_if $skip (i32.eqz (local.get $v))))
                (br_if $stems (i32.and (local.get $v) (i32.const 0x40000000))))
              (br $wordEnd))
              ;; Lexicons without prefix entries, and words past their third letter whose first
              ;; three letters start no prefix entry.
              (loop $plain
                (local.set $any (i32.or (local.get $any) (local.get $v)))
                (local.set $h (i32.mul (i32.xor (local.get $h) (i32.and (local.get $v) (i32.const 0xffff)))
                  (i32.const 0x01000193)))
                (i32.store16 (i32.add (local.get $i) (local.get $folded)) (local.get $v))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                (br_if $plain (i32.and (local.get $v) (i32.const 0x40000000)))
                (br_if $wordEnd (local.get $v))
                (loop $skip
                  (i32.store16 (i32.add (local.get $i) (local.get $folded)) (i32.const 0))
                  (local.set $i (i32.add (local.get $i) (i32.const 2)))
                  (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (i32.load16_u (local.get $i)) (i32.const 2)))))
                  (br_if $skip (i32.eqz (local.get $v))))
                (br_if $plain (i32.and (local.get $v) (i32.const 0x40000000)))
                (br $wordEnd)))
            ;; The word ended before unit `i`, which the outer loop takes next.
            (if (i32.and (local.get $mask) (i32.const 1)) (then (call $rewalk (local.get $wordStart) (local.get $i))))
            (if (i32.lt_s (local.get $any) (i32.const 0))
              (then (call $countNonAscii (local.get $wordStart) (local.get $i))))
            ;; The lookups behind their filters (most words are in neither): the pair with the
            ;; previous word first, as a two-word phrase starts before a one-word entry.
            (if (i32.ge_s (local.get $prevStart) (i32.const 0))
              (then
                ;; pairHash in word-hash.ts.
                (local.set $f
                  (i32.xor
                    (i32.mul (i32.xor (local.get $prevHash) (i32.shr_u (local.get $h) (i32.const 16)))
                      (i32.const 0x2c1b3c6d))
                    (local.get $h)))
                (local.set $v (i32.shr_u (local.get $f) (i32.load offset=48 (local.get $lex))))
                (if (i32.and
                      (i32.load8_u (i32.add (i32.load offset=44 (local.get $lex)) (i32.shr_u (local.get $v) (i32.const 3))))
                      (i32.shl (i32.const 1) (i32.and (local.get $v) (i32.const 7))))
                  (then
                    (call $probe (i32.load offset=8 (local.get $lex)) (i32.load offset=12 (local.get $lex))
                      (local.get $f) (local.get $prevStart) (i32.const 0))))))
            (local.set $v (i32.shr_u (local.get $h) (i32.load offset=40 (local.get $lex))))
            (if (i32.and
                  (i32.load8_u (i32.add (i32.load offset=36 (local.get $lex)) (i32.shr_u (local.get $v) (i32.const 3))))
                  (i32.shl (i32.const 1) (i32.and (local.get $v) (i32.const 7))))
              (then
                ;; The usual hit is counted here, without a call: the word's first slot holds its
                ;; key and one pattern, letters only and as long as the word (meta: length << 3 |
                ;; 7), of at most 8 letters, already seen in this scan. Anything else: $probe.
                (local.set $f (i32.add (i32.load (local.get $lex))
                  (i32.shl (i32.and (local.get $h) (i32.load offset=4 (local.get $lex))) (i32.const 5))))
                (local.set $v (i32.sub (local.get $i) (local.get $wordStart)))
                (block $done
                  (block $general
                    (br_if $general (i32.ne (i32.load (local.get $f)) (local.get $h)))
                    (br_if $general (i32.ne (i32.load offset=12 (local.get $f))
                      (i32.or (i32.shl (local.get $v) (i32.const 2)) (i32.const 7))))
                    (br_if $general (i32.ne (i32.load offset=20 (local.get $f)) (i32.const 1)))
                    (br_if $general (i32.gt_u (local.get $v) (i32.const 16)))
                    ;; The folded copy against the pattern's units: two 8-byte compares, masked to
                    ;; the word's 2 to 16 bytes (both have 16 bytes of slack after them).
                    (br_if $done (i64.ne
                      (i64.or
                        (i64.and
                          (i64.xor (i64.load (i32.add (local.get $wordStart) (local.get $folded)))
                            (i64.load (i32.load offset=8 (local.get $f))))
                          (select (i64.const -1)
                            (i64.shr_u (i64.const -1)
                              (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $v) (i32.const 3)))))
                            (i32.ge_u (local.get $v) (i32.const 8))))
                        (i64.and
                          (i64.xor (i64.load offset=8 (i32.add (local.get $wordStart) (local.get $folded)))
                            (i64.load offset=8 (i32.load offset=8 (local.get $f))))
                          (select
                            (i64.shr_u (i64.const -1)
                              (i64.extend_i32_u (i32.sub (i32.const 128) (i32.shl (local.get $v) (i32.const 3)))))
                            (i64.const 0)
                            (i32.gt_u (local.get $v) (i32.const 8)))))
                      (i64.const 0)))
                    (local.set $v (i32.shl (i32.load offset=16 (local.get $f)) (i32.const 2)))
                    (br_if $general (i32.ne (i32.load (i32.add (i32.load offset=76 (local.get $lex)) (local.get $v)))
                      (global.get $generation)))
                    (local.set $v (i32.add (i32.load offset=80 (local.get $lex)) (local.get $v)))
                    (i32.store (local.get $v) (i32.add (i32.load (local.get $v)) (i32.const 1)))
                    (br $done))
                  (call $probe (i32.load (local.get $lex)) (i32.load offset=4 (local.get $lex))
                    (local.get $h) (local.get $wordStart) (local.get $i)))))
            (local.set $prevStart (local.get $wordStart))
            (local.set $prevHash (local.get $h))
            ;; The usual case, a space (U+0020, when the fold table keeps it a space: `$space`)
            ;; and the next word, read together, without a turn of the outer loop (a space only
            ;; keeps the previous word for a pair; the sentinel is not a space, and the unit after
            ;; it is readable: the folded copy follows the text).
            (local.set $v (i32.load (local.get $i)))
            (if (i32.eq (i32.and (local.get $v) (i32.const 0xffff)) (global.get $space))
              (then
                (local.set $v (i32.load (i32.add (local.get $info)
                  (i32.shl (i32.shr_u (local.get $v) (i32.const 16)) (i32.const 2)))))
                (if (i32.and (local.get $v) (i32.const 0x40000000))
                  (then
                    (local.set $i (i32.add (local.get $i) (i32.const 2)))
                    (br $word)))))
            (br $outer))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        ;; A skipped unit outside a word: looked through.
        (br_if $outer (i32.eqz (local.get $v)))
        (local.set $f (i32.and (local.get $v) (i32.const 0xffff)))
        (if (i32.eq (i32.shr_u (local.get $v) (i32.const 16)) (i32.const 3))
          (then
            ;; White space keeps the previous word for a pair; a line feed starts a line.
            (if (i32.eq (local.get $f) (i32.const 0x0a))
              (then
                (i32.store offset=16 (i32.const 0) (i32.add (i32.load offset=16 (i32.const 0)) (i32.const 1)))
                (local.set $lineStart (i32.const 1))))
            (br $outer)))
        ;; Other and unbounded units. Only a hyphen (besides spaces) keeps the previous word.
        (if (i32.ne (local.get $f) (i32.const 0x2d)) (then (local.set $prevStart (i32.const -1))))
        (if (i32.eq (i32.shr_u (local.get $v) (i32.const 16)) (i32.const 2))
          (then
            (i32.store offset=8 (i32.const 0) (i32.add (i32.load offset=8 (i32.const 0)) (i32.const 1)))
            (local.set $lineStart (i32.const 0)))
          (else
            (if (i32.eq (local.get $f) (i32.const 0x3f))
              (then
                (i32.store offset=20 (i32.const 0) (i32.add (i32.load offset=20 (i32.const 0)) (i32.const 1)))))
            (if (local.get $lineStart)
              (then
                (local.set $lineStart (i32.const 0))
                (call $bullet (local.get $f) (local.get $i))))))
        (if (i32.load offset=52 (local.get $lex))
          (then
            (if (i32.and
                  (i32.load8_u (i32.add (i32.load offset=52 (local.get $lex)) (i32.shr_u (local.get $f) (i32.const 3))))
                  (i32.shl (i32.const 1) (i32.and (local.get $f) (i32.const 7))))
              (then (call $anywhere (local.get $f) (i32.sub (local.get $i) (i32.const 2)))))))
        (br $outer)))
    (i32.store offset=32 (i32.const 0) (global.get $hitCount))
    (global.get $hitCount))

  ;; A line starts with unit `f` before `next`: a bullet when `f` is `-`, `*` or `•` and white
  ;; space follows (the sentinel is not white space).
  (func $bullet (param $f i32) (param $next i32)
    (if (i32.and
          (i32.or (i32.or (i32.eq (local.get $f) (i32.const 0x2d)) (i32.eq (local.get $f) (i32.const 0x2a)))
            (i32.eq (local.get $f) (i32.const 0x2022)))
          (i32.eq (i32.shr_u (call $infoAt (local.get $next)) (i32.const 16)) (i32.const 3)))
      (then
        (i32.store offset=28 (i32.const 0) (i32.add (i32.load offset=28 (i32.const 0)) (i32.const 1))))))

)
