/// An endless, seeded stream of English-looking words with sentence capitals and punctuation.
///
/// Cost: O(word length) per word. Output depends only on the random stream it is given.
struct TextSource: Sendable {
    /// Common words, weighted towards the short ones by repetition of the list's head.
    static let words: [String] = [
        "the", "of", "and", "to", "a", "in", "is", "it", "that", "for", "on", "was", "with", "as",
        "be", "at", "by", "this", "we", "or", "from", "but", "not", "are", "all", "can", "one",
        "about", "after", "again", "also", "always", "around", "because", "before", "between",
        "book", "call", "change", "city", "close", "could", "country", "day", "different", "early",
        "enough", "even", "every", "family", "first", "follow", "found", "garden", "give", "good",
        "great", "group", "hand", "happy", "head", "help", "home", "house", "idea", "important",
        "journal", "just", "keep", "kind", "know", "large", "later", "learn", "letter", "light",
        "little", "long", "make", "many", "meeting", "might", "money", "morning", "mountain",
        "never", "next", "night", "note", "number", "often", "only", "open", "other", "page",
        "paper", "people", "picture", "place", "plan", "point", "question", "quick", "quite",
        "really", "remember", "right", "river", "school", "second", "should", "simple", "small",
        "something", "sometimes", "sound", "still", "story", "study", "summer", "table", "think",
        "thought", "through", "today", "together", "tomorrow", "under", "until", "very", "walk",
        "water", "weather", "week", "while", "without", "world", "write", "year", "young",
        "zebra", "jazz", "exact", "quiet", "box", "vivid", "wax"
    ]

    private var wordsLeftInSentence = 0

    /// The next word; `newParagraph` is true when a paragraph starts at it.
    mutating func next(using rng: inout HandwritingRandom) -> (text: [UInt8], newParagraph: Bool) {
        var newParagraph = false
        var capital = false
        if wordsLeftInSentence == 0 {
            wordsLeftInSentence = 4 + rng.below(11)
            capital = true
            newParagraph = rng.chance(0.12)
        }
        wordsLeftInSentence -= 1
        var text: [UInt8]
        if rng.chance(0.04) {
            text = Array(String(1 + rng.below(2030)).utf8)
        } else {
            let n = Self.words.count
            // Bias towards the frequent head of the list: min of two draws.
            let i = rng.chance(0.1) ? min(rng.below(n), rng.below(n)) : rng.below(n)
            text = Array(Self.words[i].utf8)
        }
        if capital, let first = text.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") {
            text[0] = first - 32
        }
        if wordsLeftInSentence == 0 {
            text.append(rng.chance(0.85) ? UInt8(ascii: ".") : UInt8(ascii: "?"))
        } else if rng.chance(0.08) {
            text.append(UInt8(ascii: ","))
        }
        return (text, newParagraph)
    }
}
