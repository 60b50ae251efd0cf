#!/usr/bin/env python3
"""Lists the words a player could be shown that look like they touch a family-unsafe topic, for a person to read.

    python3 Tests/Words/review-words.py            # every category
    python3 Tests/Words/review-words.py alcohol    # one

Reads the shipped lists in Sources/WordGames/Resources/words/ (Snowman secrets, the word packs, Scramble roots and
the dictionary words Scramble can reveal as missed, i.e. not in unshown.txt), leaves out what blocklist.txt already
blocks (through blocklist.awk, the rules make-word-lists.sh applies), and prints, per category, the words that
contain one of the category's stems. The stems are deliberately broad: most hits are innocent ("cocktail",
"skill"). The script only finds candidates; a person decides and adds entries to blocklist.txt, then runs
make-word-lists.sh. It is not run by the tests (BlocklistTests holds the shipped lists to the blocklist).
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WORDS = os.path.join(HERE, "..", "..", "Sources", "WordGames", "Resources", "words")

# Stems per category of blocklist.txt's standard. Substring matches, so keep each stem distinctive.
CATEGORIES = {
    "insults": ["idiot", "moron", "stupid", "dumb", "dumm", "ugly", "fool", "freak", "jerk", "lunatic", "insane",
                "loser", "dork", "dunce", "dope", "nerd", "twit", "imbecil", "cretin", "halfwit", "dimwit",
                "retard", "bigot", "crazy", "psycho", "nutter", "fatso", "slob", "pig", "cow", "dog", "rat",
                "scum", "creep", "sissy", "wimp", "prat", "git", "oaf", "bimbo", "bozo", "clown", "numbskull",
                "pathetic", "stinker", "weirdo", "geek", "brat", "snob", "liar", "cheat", "coward", "thug", "lout"],
    "bodies": ["naked", "nude", "bare", "butt", "bum", "bottom", "breast", "bust", "boob", "belly", "navel",
               "groin", "crotch", "buttock", "bosom", "pee", "poo", "piss", "urin", "fece", "feces", "dung",
               "vomit", "puke", "snot", "booger", "spit", "phlegm", "pus", "bowel", "colon", "rectum", "armpit",
               "sweat", "belch", "burp", "toilet", "diaper", "corpse", "cadaver", "carcass", "flesh", "gut",
               "intestin", "bladder", "period", "menstru", "pregnan", "womb", "kiss", "lust", "lover", "sexy",
               "strip", "undress", "bikini", "bra", "panties", "thong", "underwear", "lingerie"],
    "alcohol": ["beer", "wine", "ale", "lager", "liquor", "whisk", "vodka", "gin", "rum", "brandy", "booze",
                "drunk", "tipsy", "sober", "hangover", "champagne", "cocktail", "pub", "tavern", "saloon", "bar",
                "brew", "cider", "mead", "sherry", "scotch", "bourbon", "tequila", "alcohol", "wino", "sake",
                "martini", "stout", "port", "vermouth", "liqueur", "keg", "ale", "toast"],
    "drugs": ["drug", "dope", "weed", "pot", "stoned", "crack", "smack", "junk", "addict", "cigar", "tobacco",
              "nicotin", "smok", "vape", "bong", "pill", "narco", "opium", "opiat", "cocain", "heroin", "meth",
              "ecstasy", "coke", "hash", "joint", "needle", "inject", "overdos", "dealer", "high"],
    "violence": ["kill", "murder", "stab", "shoot", "shot", "gun", "rifle", "pistol", "revolv", "bullet", "bomb",
                 "grenade", "missile", "weapon", "arms", "armed", "ammo", "ammun", "bayonet", "dagger", "sword",
                 "knife", "blade", "axe", "war", "battle", "attack", "assault", "fight", "punch", "beat", "blood",
                 "gore", "wound", "injur", "violen", "victim", "hostage", "terror", "riot", "torture", "tortur",
                 "bully", "abuse", "slap", "whip", "lash", "hang", "noose", "execut", "strangl", "choke", "drown",
                 "burn", "explo", "dynamit", "cannon", "artiller", "sniper", "snipe", "soldier", "army", "militar",
                 "combat", "invade", "invasion", "raid", "loot", "robb", "thief", "theft", "crime", "criminal",
                 "gang", "mafia", "prison", "jail", "convict", "felon", "revenge", "cruel", "brutal", "savage"],
    "disease/death": ["dead", "death", "die", "dying", "corpse", "grave", "coffin", "casket", "funeral", "burial",
                      "bury", "buried", "tomb", "cemeter", "mortal", "fatal", "lethal", "deadly", "morgue",
                      "skull", "skelet", "ghost", "zombie", "cancer", "tumor", "disease", "ill", "sick", "plague",
                      "virus", "infect", "fever", "flu", "measles", "pox", "leper", "leprosy", "ulcer", "cough",
                      "germ", "epidemic", "pandemic", "poison", "toxic", "venom", "famine", "starv", "widow",
                      "orphan", "mourn", "grief", "suicid", "cripple", "disab", "handicap", "wheelchair", "amput",
                      "insan", "mental", "madness", "asylum", "wound", "injur", "bleed", "hospital", "surgery"],
}


def read(path):
    with open(path, encoding="utf-8") as handle:
        return [line.strip().lower() for line in handle if line.strip() and not line.startswith("#")]


def blocked(words):
    """The words blocklist.awk blocks."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(sorted(set(words))) + "\n")
        name = handle.name
    try:
        out = subprocess.run(["awk", "-f", os.path.join(HERE, "blocklist.awk"), os.path.join(HERE, "blocklist.txt"),
                              name], capture_output=True, text=True, check=True, env={**os.environ, "LC_ALL": "C"})
    finally:
        os.remove(name)
    return {line.split("\t")[0] for line in out.stdout.splitlines()}


def main():
    wanted = sys.argv[1:] or list(CATEGORIES)
    unshown = set(read(os.path.join(WORDS, "unshown.txt")))
    lists = {
        "secret": read(os.path.join(WORDS, "secrets.txt")),
        "root": read(os.path.join(WORDS, "roots.txt")),
        "shown": [w for w in read(os.path.join(WORDS, "dictionary.txt")) if w not in unshown],
    }
    packs = os.path.join(WORDS, "packs")
    for name in sorted(os.listdir(packs)):
        lists["pack " + name] = read(os.path.join(packs, name))
    everything = {word for words in lists.values() for word in words}
    out = blocked(everything)
    for category in wanted:
        stems = CATEGORIES[category]
        print(f"== {category}")
        for list_name, words in lists.items():
            hits = [w for w in words if w not in out and any(stem in w for stem in stems)]
            if hits:
                print(f"-- {list_name} ({len(hits)}): {' '.join(hits)}")


if __name__ == "__main__":
    main()
