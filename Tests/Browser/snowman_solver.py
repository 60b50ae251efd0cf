"""What the suites that play Snowman share: the game's word lists and a solver that picks the next letter."""

import collections
import os

# English letters by frequency, for guessing when nothing better is known.
FREQUENCY = "ESIARNTOLCDUGPMHBYFVKWZXQJ"


def load_words(repo, name):
    """The words of one of the server's word lists (Sources/WordGames/Resources/words/NAME), comments left out."""
    path = os.path.join(repo, "Sources", "WordGames", "Resources", "words", name)
    with open(path, encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip() and not line.startswith("#")]


class SnowmanSolver:
    """Picks letters from the secret-word list: likely ones to win, impossible ones to lose."""

    def __init__(self, secrets):
        self.by_length = collections.defaultdict(list)
        for word in secrets:
            if word.isalpha() and word.isascii():
                self.by_length[len(word)].append(word.upper())

    def candidates(self, tiles, guessed):
        """The secrets that fit the shown tiles ([letter or "", missed]) and the guesses ("A+" a hit, "B-" a miss)."""
        pattern = [letter or None for letter, _ in tiles]
        wrong = {entry[0] for entry in guessed if entry.endswith("-")}
        right = {entry[0] for entry in guessed if entry.endswith("+")}
        out = []
        for word in self.by_length.get(len(pattern), []):
            if any(letter in wrong for letter in word):
                continue
            if all((known == letter) if known else (letter not in right) for known, letter in zip(pattern, word)):
                out.append(word)
        return out

    def letter(self, tiles, guessed, want_loss):
        used = {entry[0] for entry in guessed}
        counts = collections.Counter()
        for word in self.candidates(tiles, guessed):
            counts.update(set(word) - used)
        if want_loss:
            for letter in reversed(FREQUENCY):
                if letter not in used and counts[letter] == 0:
                    return letter
        if counts:
            return counts.most_common(1)[0][0]
        return next(letter for letter in FREQUENCY if letter not in used)
