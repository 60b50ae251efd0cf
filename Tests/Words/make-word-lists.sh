#!/usr/bin/env bash
# Regenerates the word lists bundled in Sources/WordGames/Resources/words/ from SCOWL, as packaged by Debian.
#
#   apt-get install -y wamerican-small wamerican scowl
#   bash Tests/Words/make-word-lists.sh
#
# Outputs (one lowercase word a line, after a `#` header):
#   secrets.txt     Snowman secrets: a few thousand everyday words of 4-10 letters, from SCOWL's two commonest
#                   sizes (10 and 20, the `*-words.10` and `*-words.20` lists of Debian's `scowl`), leaving out
#                   plurals, verb forms, comparatives and adverbs whose base word is also there ("houses",
#                   "walked", "walking", "bigger", "quickly"): a room draws the base word instead.
#   dictionary.txt  Scramble checking: wamerican (SCOWL size 50), 3-8 letters, less the [slurs] of the blocklist.
#                   Nothing longer than an eight-letter root can be spelled, and no room accepts words shorter
#                   than 3 letters.
#   unshown.txt     The dictionary words matched by the blocklist's other sections: Scramble accepts them when a
#                   player types one, but never lists them among a round's missed words.
#   roots.txt       Scramble roots: eight-letter words of wamerican-small (SCOWL size 35), none blocked, that
#                   contain at least ROOT_MIN_SUBWORDS other dictionary words of 3+ letters that can be shown
#                   (not in unshown.txt; 8-letter anagrams count).
#   SCOWL-COPYRIGHT The SCOWL notice, which must travel with the lists.
#
# The Snowman word packs in packs/ (animals.txt, food.txt, ...) are written by hand, not generated: this script
# leaves them alone, and WordPackTests holds them to the same blocklist and to the dictionary it writes.
#
# The wamerican files also fold in SCOWL's abbreviation, roman-numeral, contraction and proper-name lists.
# Keeping only lowercase a-z drops proper names and possessives, but not "etc", "adj" or "xiv"; so a word is
# kept only if one of SCOWL's own "*-words" lists (Debian package `scowl`) at size 50 or below has it.
#
# Tests/Words/blocklist.txt says which words are never a secret, a root or a missed word (its header gives the
# matching rules); blocklist.awk applies it. Tests/Words/review-words.py lists the words still shown that look close to a
# blocked topic, for a person to review before extending the blocklist. A blocked word is dropped from secrets.txt and roots.txt; a slur is
# dropped from dictionary.txt as well, any other blocked dictionary word goes to unshown.txt.
#
# The Swift tests check the result: WordListsTests the sizes, the line format and that every root reaches the
# threshold when counted by the game's own `Lexicon`; BlocklistTests that no blocked word (by the same rules,
# read from blocklist.txt) is a secret or a root and that unshown.txt holds exactly the blocked dictionary words.
set -euo pipefail
export LC_ALL=C

readonly ROOT_MIN_SUBWORDS=25
readonly DICT=/usr/share/dict
readonly SCOWL=/usr/share/dict/scowl
readonly HERE="$(cd "$(dirname "$0")" && pwd)"
readonly OUT="$(cd "$HERE/../.." && pwd)/Sources/WordGames/Resources/words"

for file in "$DICT/american-english-small" "$DICT/american-english" "$SCOWL/english-words.10" \
    /usr/share/doc/wamerican/copyright; do
    if [[ ! -r "$file" ]]; then
        echo "missing $file: apt-get install -y wamerican-small wamerican scowl" >&2
        exit 1
    fi
done
mkdir -p "$OUT"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Every word SCOWL classes as a word (not an abbreviation, name, numeral or contraction) up to size 50.
cat "$SCOWL"/{american,english,variant_1,variant_2}-words.{10,20,35,40,50} 2>/dev/null \
    | grep -E '^[a-z]+$' | sort -u > "$work/real-words"

# The common words secrets are chosen from: SCOWL sizes 10 and 20, American spelling.
cat "$SCOWL"/{american,english}-words.{10,20} | grep -E '^[a-z]+$' | sort -u > "$work/common-words"

# Prints the words of $1 that the blocklist does not match ($2 = all) or that only its [slurs] match ($2 = slurs),
# or those that its other sections match ($2 = others).
blocklist() {
    awk -f "$HERE/blocklist.awk" "$HERE/blocklist.txt" "$1" > "$work/matches"
    case "$2" in
        all) cut -f1 "$work/matches" | comm -23 "$1" - ;;
        slurs) awk -F'\t' '$2 == "slurs" { print $1 }' "$work/matches" | comm -23 "$1" - ;;
        others) awk -F'\t' '$2 != "slurs" { print $1 }' "$work/matches" ;;
    esac
}

# Prints the words of $1 of $2 to $3 letters that SCOWL classes as words, sorted and unique.
clean() {
    grep -E "^[a-z]{$2,$3}\$" "$1" | sort -u | comm -12 - "$work/real-words" || true
}

# Keeps the words of stdin that are not an inflection of another common word: plurals and third persons (-s, -es,
# -ies), past tenses (-ed, -ied), present participles (-ing), comparatives and superlatives (-er, -est, -ier,
# -iest) and adverbs (-ly, -ily), with a final e dropped or a consonant doubled as English does. The base word
# must have 3 letters for a plural and 4 for the rest, so that "thing", "only" and "early" stay while "houses",
# "walked" and "moving" go. A comparative goes only when its superlative is common too ("bigger"; alas "number").
base_words() {
    awk '
    FNR == NR { common[$0] = 1; next }
    function known(base, shortest) { return length(base) >= shortest && base != word && (base in common) }
    function inflects(suffix,    n, base, last) {
        n = length(word) - length(suffix)
        if (n < 1 || substr(word, n + 1) != suffix) return 0
        base = substr(word, 1, n)
        last = substr(base, n, 1)
        return known(base, 4) || known(base "e", 4) \
            || (last == substr(base, n - 1, 1) && known(substr(base, 1, n - 1), 3))
    }
    function inflects_y(suffix,    n) {
        n = length(word) - length(suffix)
        return n >= 1 && substr(word, n + 1) == suffix && known(substr(word, 1, n) "y", 3)
    }
    {
        word = $0
        n = length(word)
        if (inflects_y("ies") || inflects_y("ied") || inflects_y("iest") || inflects_y("ily")) next
        if (word ~ /[^s]s$/ && known(substr(word, 1, n - 1), 3)) next
        if (word ~ /es$/ && known(substr(word, 1, n - 2), 3)) next
        if (inflects("ed") || inflects("ing") || inflects("est") || inflects("ly")) next
        # A comparative whose superlative is common too ("bigger", "nicer", "happier").
        if (word ~ /er$/ && (substr(word, 1, n - 2) "est") in common && \
            (inflects("er") || inflects_y("ier"))) next
        print
    }' "$work/common-words" -
}

clean "$work/common-words" 4 10 | base_words > "$work/secret-candidates"
blocklist "$work/secret-candidates" all > "$work/secrets"
clean "$DICT/american-english" 3 8 > "$work/scowl-dictionary"
blocklist "$work/scowl-dictionary" slurs > "$work/dictionary"
blocklist "$work/dictionary" others > "$work/unshown"
comm -23 "$work/dictionary" "$work/unshown" > "$work/shown"
clean "$DICT/american-english-small" 8 8 > "$work/root-candidates"
blocklist "$work/root-candidates" all > "$work/candidates"

# Counts each candidate's sub-words without scanning the dictionary: the dictionary is indexed by sorted-letter
# signature, and each of the candidate's 255 letter subsets (deduplicated) is one lookup.
awk -v min_subwords="$ROOT_MIN_SUBWORDS" -v min_length=3 '
function signature(word,    n, i, j, letters, t, s) {
    n = length(word)
    for (i = 1; i <= n; i++) letters[i] = substr(word, i, 1)
    for (i = 2; i <= n; i++) {
        t = letters[i]
        for (j = i - 1; j >= 1 && letters[j] > t; j--) letters[j + 1] = letters[j]
        letters[j + 1] = t
    }
    s = ""
    for (i = 1; i <= n; i++) s = s letters[i]
    return s
}
FNR == NR { words[$0] = 1; count[signature($0)]++; next }
{
    sorted = signature($0)
    delete seen
    total = 0
    for (mask = 1; mask < 256; mask++) {
        key = ""
        bits = mask
        for (i = 1; i <= 8; i++) {
            if (bits % 2 == 1) key = key substr(sorted, i, 1)
            bits = int(bits / 2)
        }
        if (length(key) < min_length || (key in seen)) continue
        seen[key] = 1
        if (key in count) total += count[key]
    }
    if ($0 in words) total--
    if (total >= min_subwords) print
}' "$work/shown" "$work/candidates" > "$work/roots"

header() {
    echo "# $1"
    echo "# Generated by Tests/Words/make-word-lists.sh from SCOWL $2 (see SCOWL-COPYRIGHT) and"
    echo "# Tests/Words/blocklist.txt. Do not edit by hand."
}
{ header "Snowman secrets: common English words of 4-10 letters." "sizes 10 and 20"; cat "$work/secrets"; } \
    > "$OUT/secrets.txt"
{ header "Scramble dictionary: English words of 3-8 letters." "via wamerican"; cat "$work/dictionary"; } \
    > "$OUT/dictionary.txt"
{ header "Scramble words accepted but never listed as missed: dictionary words the blocklist matches." \
    "via wamerican"; cat "$work/unshown"; } > "$OUT/unshown.txt"
{ header "Scramble roots: eight-letter words with at least $ROOT_MIN_SUBWORDS shown sub-words of 3+ letters." \
    "via wamerican-small and wamerican"; cat "$work/roots"; } > "$OUT/roots.txt"
cp /usr/share/doc/wamerican/copyright "$OUT/SCOWL-COPYRIGHT"

wc -l "$work/secrets" "$work/dictionary" "$work/unshown" "$work/roots"
