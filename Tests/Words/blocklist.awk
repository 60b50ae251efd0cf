# Applies Tests/Words/blocklist.txt to a list of words; used by make-word-lists.sh.
#
#   awk -f blocklist.awk blocklist.txt words.txt
#
# Prints every blocked word of words.txt as "word<TAB>section", where section is "slurs" when any [slurs] entry
# matches it, else that of another matching entry. The entry syntax and the inflection rules are
# described at the top of blocklist.txt; Tests/WordGamesTests/BlocklistTests.swift implements the same rules.

BEGIN {
    split("s es ed er ers est ing ings y ier iest ies ily ly ness ish ic ous al ally ation ations ion ions " \
          "ist ists ism isms ity ive ery", suffixes, " ")
    section = ""
}

# Records `key` under `table` for `section`, a [slurs] entry winning over any other.
function note(table, key) {
    if (!((table, key) in found) || section == "slurs") found[table, key] = section
}

# Records the stem and its inflections in `table`.
function inflect(table, stem,    n, last, i, suffix, vowel) {
    note(table, stem)
    n = length(stem)
    last = substr(stem, n, 1)
    for (i = 1; i in suffixes; i++) {
        suffix = suffixes[i]
        note(table, stem suffix)
        if (suffix !~ /^[aeiouy]/) continue
        if (last == "e") note(table, substr(stem, 1, n - 1) suffix)
        else if (last == "y") note(table, substr(stem, 1, n - 1) "i" suffix)
        else if (last !~ /[aeiou]/) note(table, stem last suffix)
    }
}

FNR == NR {
    line = $0
    sub(/#.*/, "", line)
    gsub(/[ \t\r]/, "", line)
    if (line == "") next
    if (line ~ /^\[[a-z]+\]$/) { section = substr(line, 2, length(line) - 2); next }
    if (line !~ /^(=|!)?\*?[a-z]+\*?$/ || line ~ /^[=!]\*|^[=!].*\*$/) {
        print "blocklist.txt line " FNR ": bad entry \"" $0 "\"" > "/dev/stderr"
        failed = 1
        exit 1
    }
    if (section == "") {
        print "blocklist.txt line " FNR ": entry before the first [section]" > "/dev/stderr"
        failed = 1
        exit 1
    }
    if (line ~ /^!/) { allowed[substr(line, 2)] = 1; next }
    if (line ~ /^=/) { note("exact", substr(line, 2)); next }
    leading = line ~ /^\*/
    trailing = line ~ /\*$/
    gsub(/\*/, "", line)
    if (leading && trailing) note("inside", line)
    else if (trailing) note("prefix", line)
    else if (leading) inflect("suffix", line)
    else inflect("exact", line)
    next
}

{
    word = $0
    if (word in allowed) next
    n = length(word)
    hit = ""
    if (("exact", word) in found) hit = found["exact", word]
    for (i = 1; i <= n && hit != "slurs"; i++) {
        for (j = i; j <= n && hit != "slurs"; j++) {
            part = substr(word, i, j - i + 1)
            if (j == n && (("suffix", part) in found)) hit = pick(hit, found["suffix", part])
            if (i == 1 && (("prefix", part) in found)) hit = pick(hit, found["prefix", part])
            if (("inside", part) in found) hit = pick(hit, found["inside", part])
        }
    }
    if (hit != "") print word "\t" hit
}

function pick(current, candidate) {
    return current == "" || candidate == "slurs" ? candidate : current
}

END { if (failed) exit 1 }
