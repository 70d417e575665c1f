;; The hot loop of Lexicon.scan, in WebAssembly (see wasm-scanner.ts for the JS side).
;;
;; It walks UTF-16 code units once, folds and classifies each through a per-fold-table `info`
;; table (u32 per code unit: folded unit in the low 16 bits, character class in the high bits),
;; hashes words (FNV-1a over folded units), gathers the text statistics, and looks every finished
;; word (and every pair of consecutive words, and every prefix length of prefix entries) up in
;; the lexicon's hash tables. It never decides a match: each hit of a hash table, each character
;; that may start an `anywhere` entry, each line-start digit or bullet is written out as a
;; candidate (kind | slot << 3, position), and the JS side verifies candidates against the text
;; with the same code the pure-JS scanner uses. So both scanners find exactly the same entries.
;;
;; The text comes in chunks; the scan state lives in a small struct in memory between calls. A
;; call returns the number of units consumed: less than asked when the candidate buffer filled.
;;
;; Speed notes (measured): values live across the character loop cost time even when the loop
;; does not touch them (V8 spills them), so the loop keeps a handful of locals and everything
;; else sits in the state struct, read at word boundaries; words are consumed by an inner loop
;; that has no word-start branch.
(module
  (memory (export "memory") 8)

  ;; State struct at address 0 (offsets also in wasm-scanner.ts):
  ;;  0 wordStart   4 prefixLimit  8 prevStart  12 prevHash  16 lineStart  20 words
  ;; 24 numbers    28 unbounded   32 nonAscii  36 lines     40 questions  44 outCount
  ;; 48 hash       52 letters     56 base      60 lex       64 info       68 out      72 room
  ;; Lexicon block (at `lex`): 0 exact table, 4 its mask, 8 pair table, 12 its mask, 16 prefix
  ;; table, 20 its mask, 24 prefix lengths (bit n: a prefix entry of n letters), 28 prefix filter
  ;; (8192 bits of the hashes of first three letters), 32 anywhere bit set (65536 bits, by
  ;; folded unit), 36 flags (1: anywhere entries, 2: anywhere entries that start with a letter),
  ;; 40 exact word filter and 44 pair filter (2^17 bits each, by hash >>> 15), 48 prefix filter
  ;; of first two letters (8192 bits).
  ;; Candidate kinds: 1 exact word, 2 word pair, 3 prefix, 4 anywhere, 5 numbered line, 6 bullet.

  ;; Starts a scan (base, lex, info, out and room are set by the caller).
  (func (export "reset")
    (i32.store offset=0 (i32.const 0) (i32.const -1))
    (i32.store offset=4 (i32.const 0) (i32.const 0))
    (i32.store offset=8 (i32.const 0) (i32.const -1))
    (i32.store offset=12 (i32.const 0) (i32.const 0))
    (i32.store offset=16 (i32.const 0) (i32.const 1))
    (i32.store offset=20 (i32.const 0) (i32.const 0))
    (i32.store offset=24 (i32.const 0) (i32.const 0))
    (i32.store offset=28 (i32.const 0) (i32.const 0))
    (i32.store offset=32 (i32.const 0) (i32.const 0))
    (i32.store offset=36 (i32.const 0) (i32.const 0))
    (i32.store offset=40 (i32.const 0) (i32.const 0))
    (i32.store offset=44 (i32.const 0) (i32.const 0))
    (i32.store offset=48 (i32.const 0) (i32.const 0))
    (i32.store offset=52 (i32.const 0) (i32.const 0)))

  ;; Writes one candidate (kind, absolute position base + i).
  (func $emit (param $kind i32) (param $i i32)
    (local $n i32) (local $p i32)
    (local.set $n (i32.load offset=44 (i32.const 0)))
    (local.set $p (i32.add (i32.load offset=68 (i32.const 0)) (i32.shl (local.get $n) (i32.const 3))))
    (i32.store (local.get $p) (local.get $kind))
    (i32.store offset=4 (local.get $p) (i32.add (i32.load offset=56 (i32.const 0)) (local.get $i)))
    (i32.store offset=44 (i32.const 0) (i32.add (local.get $n) (i32.const 1))))

  ;; Writes a candidate at an absolute position.
  (func $emitAt (param $kind i32) (param $at i32)
    (call $emit (local.get $kind) (i32.sub (local.get $at) (i32.load offset=56 (i32.const 0)))))

  ;; Looks `h` up in the table whose [address, mask] are at `lex + field`; on a hash match emits
  ;; kind | slot << 3 at absolute position `at`.
  (func $probe (param $field i32) (param $h i32) (param $kind i32) (param $at i32)
    (local $table i32) (local $mask i32) (local $slot i32) (local $p i32)
    (local.set $p (i32.add (i32.load offset=60 (i32.const 0)) (local.get $field)))
    (local.set $table (i32.load (local.get $p)))
    (local.set $mask (i32.load offset=4 (local.get $p)))
    (local.set $slot (i32.and (local.get $h) (local.get $mask)))
    (block $done
      (loop $next
        (local.set $p (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 3))))
        (br_if $done (i32.eqz (i32.load (local.get $p))))
        (if (i32.eq (i32.load offset=4 (local.get $p)) (local.get $h))
          (then
            (call $emitAt (i32.or (local.get $kind) (i32.shl (local.get $slot) (i32.const 3))) (local.get $at))
            (br $done)))
        (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
        (br $next))))

  ;; Whether the word filter at `filter` has the bit of hash `h` (1 or 0).
  (func $inFilter (param $filter i32) (param $h i32) (result i32)
    (i32.and
      (i32.shr_u
        (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $h) (i32.const 18))))
        (i32.and (i32.shr_u (local.get $h) (i32.const 15)) (i32.const 7)))
      (i32.const 1)))

  ;; The key of two consecutive words (pairHash in lexicon.ts).
  (func $pair (param $first i32) (param $second i32) (result i32)
    (i32.xor
      (i32.mul (i32.xor (local.get $first) (i32.shr_u (local.get $second) (i32.const 16))) (i32.const 0x2c1b3c6d))
      (local.get $second)))

  ;; A word that started at state.wordStart ended with hash `h`: looks up the pair with the
  ;; previous word first (it starts earlier), then the word alone; the word becomes the previous.
  (func $endWord (param $h i32)
    (local $prevStart i32) (local $wordStart i32)
    (local.set $prevStart (i32.load offset=8 (i32.const 0)))
    (local.set $wordStart (i32.load offset=0 (i32.const 0)))
    (if (i32.ge_s (local.get $prevStart) (i32.const 0))
      (then
        (call $probe (i32.const 8) (call $pair (i32.load offset=12 (i32.const 0)) (local.get $h))
          (i32.const 2) (local.get $prevStart))))
    (call $probe (i32.const 0) (local.get $h) (i32.const 1) (local.get $wordStart))
    (i32.store offset=8 (i32.const 0) (local.get $wordStart))
    (i32.store offset=12 (i32.const 0) (local.get $h))
    (i32.store offset=0 (i32.const 0) (i32.const -1)))

  ;; A word starts at chunk index `i` with unit `c`.
  (func $startWord (param $i i32) (param $c i32)
    (i32.store offset=0 (i32.const 0) (i32.add (i32.load offset=56 (i32.const 0)) (local.get $i)))
    (i32.store offset=4 (i32.const 0)
      (select (i32.const 0) (i32.const 32) (i32.eqz (i32.load offset=24 (i32.load offset=60 (i32.const 0))))))
    (i32.store offset=20 (i32.const 0) (i32.add (i32.load offset=20 (i32.const 0)) (i32.const 1)))
    (if (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10))
      (then
        (i32.store offset=24 (i32.const 0) (i32.add (i32.load offset=24 (i32.const 0)) (i32.const 1)))
        (if (i32.load offset=16 (i32.const 0))
          (then (call $emit (i32.const 5) (local.get $i))))))
    (i32.store offset=16 (i32.const 0) (i32.const 0)))

  ;; The prefix lookups of a word after `letters` letters with hash `h` (only called while
  ;; letters < state.prefixLimit).
  (func $prefix (param $letters i32) (param $h i32)
    (local $lex i32) (local $head i32)
    (local.set $lex (i32.load offset=60 (i32.const 0)))
    (if (i32.or (i32.eq (local.get $letters) (i32.const 2)) (i32.eq (local.get $letters) (i32.const 3)))
      (then
        (local.set $head (i32.and (local.get $h) (i32.const 8191)))
        (if (i32.eqz (i32.and
              (i32.load8_u (i32.add
                (select (i32.load offset=48 (local.get $lex)) (i32.load offset=28 (local.get $lex))
                  (i32.eq (local.get $letters) (i32.const 2)))
                (i32.shr_u (local.get $head) (i32.const 3))))
              (i32.shl (i32.const 1) (i32.and (local.get $head) (i32.const 7)))))
          (then
            ;; No prefix entry of this many letters or more starts like this word: stop looking.
            (i32.store offset=4 (i32.const 0) (local.get $letters))
            (return)))))
    (if (i32.and (i32.shr_u (i32.load offset=24 (local.get $lex)) (local.get $letters)) (i32.const 1))
      (then (call $probe (i32.const 16) (local.get $h) (i32.const 3) (i32.load offset=0 (i32.const 0))))))

  ;; Whether folded unit `f` starts an `anywhere` entry.
  (func $anywhere (param $f i32) (result i32)
    (i32.and
      (i32.load8_u (i32.add (i32.load offset=32 (i32.load offset=60 (i32.const 0))) (i32.shr_u (local.get $f) (i32.const 3))))
      (i32.shl (i32.const 1) (i32.and (local.get $f) (i32.const 7)))))

;; A character that is not part of a word (class 0 other, 2 unbounded, 3 space).
  (func $other (param $i i32) (param $f i32) (param $cls i32)
    ;; Only spaces and hyphens keep the previous word for a pair.
    (if (i32.and (i32.ne (local.get $cls) (i32.const 3)) (i32.ne (local.get $f) (i32.const 0x2d)))
      (then (i32.store offset=8 (i32.const 0) (i32.const -1))))
    (block $counted
      (if (i32.eq (local.get $cls) (i32.const 2))
        (then
          (i32.store offset=28 (i32.const 0) (i32.add (i32.load offset=28 (i32.const 0)) (i32.const 1)))
          (i32.store offset=16 (i32.const 0) (i32.const 0))
          (br $counted)))
      (if (i32.eq (local.get $f) (i32.const 0x0a))
        (then
          (i32.store offset=36 (i32.const 0) (i32.add (i32.load offset=36 (i32.const 0)) (i32.const 1)))
          (i32.store offset=16 (i32.const 0) (i32.const 1))
          (br $counted)))
      (br_if $counted (i32.eq (local.get $cls) (i32.const 3)))
      (if (i32.eq (local.get $f) (i32.const 0x3f))
        (then
          (i32.store offset=40 (i32.const 0) (i32.add (i32.load offset=40 (i32.const 0)) (i32.const 1)))))
      (br_if $counted (i32.eqz (i32.load offset=16 (i32.const 0))))
      (i32.store offset=16 (i32.const 0) (i32.const 0))
      (if (i32.or (i32.or (i32.eq (local.get $f) (i32.const 0x2d)) (i32.eq (local.get $f) (i32.const 0x2a)))
            (i32.eq (local.get $f) (i32.const 0x2022)))
        (then (call $emit (i32.const 6) (local.get $i)))))
    (if (i32.and (i32.load offset=36 (i32.load offset=60 (i32.const 0))) (i32.const 1))
      (then
        (if (call $anywhere (local.get $f))
          (then (call $emit (i32.const 4) (local.get $i)))))))

    ;; Scans `count` units at `text` with the info table at `info`; base, lex, out and room are in
  ;; the state struct. Returns the units consumed.
  (func (export "scan") (param $text i32) (param $count i32) (param $info i32) (result i32)
    (local $i i32) (local $c i32) (local $v i32) (local $f i32)
    (local $hash i32) (local $letters i32) (local $nonAscii i32) (local $limit i32)
    (local $prefixLimit i32) (local $wordFlags i32) (local $anyFlags i32) (local $prefixBits i32)
    ;; Leave room for the most candidates one unit can add (3), and for the final word (2).
    (local.set $limit (i32.sub (i32.load offset=72 (i32.const 0)) (i32.const 5)))
    (local.set $hash (i32.load offset=48 (i32.const 0)))
    (local.set $letters (i32.load offset=52 (i32.const 0)))
    (local.set $nonAscii (i32.load offset=32 (i32.const 0)))
    (local.set $prefixLimit (i32.load offset=4 (i32.const 0)))
    (local.set $wordFlags (i32.and (i32.load offset=36 (i32.load offset=60 (i32.const 0))) (i32.const 2)))
    (local.set $anyFlags (i32.and (i32.load offset=36 (i32.load offset=60 (i32.const 0))) (i32.const 1)))
    (local.set $prefixBits (i32.load offset=24 (i32.load offset=60 (i32.const 0))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (br_if $done (i32.ge_u (i32.load offset=44 (i32.const 0)) (local.get $limit)))
        (local.set $c (i32.load16_u (i32.add (local.get $text) (i32.shl (local.get $i) (i32.const 1)))))
        (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $f (i32.and (local.get $v) (i32.const 0xffff)))
        (if (i32.eqz (local.get $f))
          (then
            ;; Zero-width characters and combining marks are looked through.
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $next)))
        (if (i32.eq (i32.shr_u (local.get $v) (i32.const 16)) (i32.const 1))
          (then
            ;; A word starts, or goes on from the previous chunk.
            (if (i32.lt_s (i32.load offset=0 (i32.const 0)) (i32.const 0))
              (then
                (if (i32.or (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10))
                      (i32.load offset=16 (i32.const 0)))
                  (then (call $startWord (local.get $i) (local.get $c)))
                  (else
                    ;; The common start of a word, inline: no digit, not at a line start.
                    (i32.store offset=0 (i32.const 0) (i32.add (i32.load offset=56 (i32.const 0)) (local.get $i)))
                    (i32.store offset=4 (i32.const 0)
                      (select (i32.const 0) (i32.const 32) (i32.eqz (i32.load offset=24 (i32.load offset=60 (i32.const 0))))))
                    (i32.store offset=20 (i32.const 0) (i32.add (i32.load offset=20 (i32.const 0)) (i32.const 1)))))
                (local.set $hash (i32.const 0x811c9dc5))
                (local.set $letters (i32.const 0))
                (local.set $prefixLimit (i32.load offset=4 (i32.const 0)))))
            ;; The inner loop takes the word's characters, this one included.
            (block $wordEnd
              (loop $letter
                (if (i32.ge_u (local.get $i) (local.get $count))
                  (then
                    (i32.store offset=4 (i32.const 0) (local.get $prefixLimit))
                    (br $done)))
                (local.set $c (i32.load16_u (i32.add (local.get $text) (i32.shl (local.get $i) (i32.const 1)))))
                (local.set $v (i32.load (i32.add (local.get $info) (i32.shl (local.get $c) (i32.const 2)))))
                (local.set $f (i32.and (local.get $v) (i32.const 0xffff)))
                (if (i32.eqz (local.get $f))
                  (then (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $letter)))
                (br_if $wordEnd (i32.ne (i32.shr_u (local.get $v) (i32.const 16)) (i32.const 1)))
                (local.set $nonAscii (i32.add (local.get $nonAscii) (i32.gt_u (local.get $c) (i32.const 0x7f))))
                (local.set $hash (i32.mul (i32.xor (local.get $hash) (local.get $f)) (i32.const 0x01000193)))
                (local.set $letters (i32.add (local.get $letters) (i32.const 1)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                ;; The rare work of a letter (prefix lookups, `anywhere` entries inside words) is
                ;; the only place a word can add candidates: the room is checked after it.
                (block $letterDone
                  (if (i32.lt_u (local.get $letters) (local.get $prefixLimit))
                    (then
                      (if (i32.or (i32.lt_u (i32.sub (local.get $letters) (i32.const 2)) (i32.const 2))
                            (i32.and (i32.shr_u (local.get $prefixBits) (local.get $letters)) (i32.const 1)))
                        (then
                          (i32.store offset=4 (i32.const 0) (local.get $prefixLimit))
                          (call $prefix (local.get $letters) (local.get $hash))
                          (local.set $prefixLimit (i32.load offset=4 (i32.const 0)))
                          (br $letterDone)))))
                  (br_if $letter (i32.eqz (local.get $wordFlags))))
                (if (local.get $wordFlags)
                  (then
                    (if (call $anywhere (local.get $f))
                      (then (call $emit (i32.const 4) (i32.sub (local.get $i) (i32.const 1)))))))
                (br_if $letter (i32.lt_u (i32.load offset=44 (i32.const 0)) (local.get $limit)))
                ;; The candidate buffer is full: stop inside the word.
                (i32.store offset=4 (i32.const 0) (local.get $prefixLimit))
                (br $done)))
            ;; The word ended before this character, which the outer loop takes next. When both
            ;; of its slots are empty (most words are no keyword), nothing needs looking up.
            (if (i32.or
                  (call $inFilter (i32.load offset=40 (i32.load offset=60 (i32.const 0))) (local.get $hash))
                  (i32.and
                    (i32.ge_s (i32.load offset=8 (i32.const 0)) (i32.const 0))
                    (call $inFilter (i32.load offset=44 (i32.load offset=60 (i32.const 0)))
                      (i32.xor
                        (i32.mul (i32.xor (i32.load offset=12 (i32.const 0)) (i32.shr_u (local.get $hash) (i32.const 16)))
                          (i32.const 0x2c1b3c6d))
                        (local.get $hash)))))
              (then (call $endWord (local.get $hash)))
              (else
                (i32.store offset=8 (i32.const 0) (i32.load offset=0 (i32.const 0)))
                (i32.store offset=12 (i32.const 0) (local.get $hash))
                (i32.store offset=0 (i32.const 0) (i32.const -1))))
            (br $next)))
        ;; A space (not a line break) with no `anywhere` entries to check: nothing to record.
        (if (i32.and (i32.eq (i32.shr_u (local.get $v) (i32.const 16)) (i32.const 3))
              (i32.and (i32.ne (local.get $f) (i32.const 0x0a)) (i32.eqz (local.get $anyFlags))))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $next)))
        ;; A word cut by the end of the previous chunk ends here.
        (if (i32.ge_s (i32.load offset=0 (i32.const 0)) (i32.const 0))
          (then (call $endWord (local.get $hash))))
        (call $other (local.get $i) (local.get $f) (i32.shr_u (local.get $v) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.store offset=48 (i32.const 0) (local.get $hash))
    (i32.store offset=52 (i32.const 0) (local.get $letters))
    (i32.store offset=32 (i32.const 0) (local.get $nonAscii))
    (local.get $i))

  ;; Ends the scan: looks up a word that runs to the end of the text.
  (func (export "finish")
    (if (i32.ge_s (i32.load offset=0 (i32.const 0)) (i32.const 0))
      (then (call $endWord (i32.load offset=48 (i32.const 0))))))
)
