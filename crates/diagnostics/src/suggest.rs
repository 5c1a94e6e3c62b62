//! "Did you mean" suggestions, one rule for every kind of name (steps,
//! files, attribute keys, constants, capabilities, configuration keys).

/// The candidate closest to `name` in spelling, when it is close enough to be
/// a likely typo: at most a third of its characters differ (at least one may),
/// and not all of them (`Z` is no typo of `A`). Ties go to the earliest
/// candidate.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = name.chars().count();
    let limit = (length / 3).max(1).min(length.saturating_sub(1));
    let name_bag = CharBag::of(name);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        // No candidate further than the limit, or than the best so far, can
        // win: skip those that a cheap lower bound of the distance already
        // rules out (a file has as many candidates as steps, and the
        // distance costs far more than the bound).
        let needed = best.map_or(limit, |(d, _)| d.saturating_sub(1)).min(limit);
        if let Some(name_bag) = &name_bag
            && name_bag.distance_to(candidate).is_some_and(|d| d > needed)
        {
            continue;
        }
        let distance = if candidate.eq_ignore_ascii_case(name) {
            0
        } else {
            strsim::damerau_levenshtein(name, candidate)
        };
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// How many times each ASCII character occurs in a name, ignoring case
/// (`eq_ignore_ascii_case` counts as distance 0); `None` for names with
/// other characters.
struct CharBag {
    counts: [u16; 128],
    len: usize,
}

impl CharBag {
    fn of(name: &str) -> Option<CharBag> {
        if !name.is_ascii() || name.len() > usize::from(u16::MAX) {
            return None;
        }
        let mut counts = [0u16; 128];
        for byte in name.bytes() {
            counts[usize::from(byte.to_ascii_lowercase())] += 1;
        }
        Some(CharBag {
            counts,
            len: name.len(),
        })
    }

    /// A lower bound of the Damerau–Levenshtein distance from this bag's
    /// name to `other` (up to case), `None` when `other` is not ASCII: each
    /// insertion, deletion or substitution changes what one name has and the
    /// other lacks by at most one character on each side, and a
    /// transposition changes neither.
    fn distance_to(&self, other: &str) -> Option<usize> {
        if !other.is_ascii() {
            return None;
        }
        let mut left = self.counts;
        let mut extra = 0;
        for byte in other.bytes() {
            let count = &mut left[usize::from(byte.to_ascii_lowercase())];
            if *count > 0 {
                *count -= 1;
            } else {
                extra += 1;
            }
        }
        let missing = self.len - (other.len() - extra);
        Some(missing.max(extra))
    }
}

/// ` (did you mean `X`?)`, or nothing.
pub fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn close_names_only() {
        assert_eq!(super::closest("Lod", ["Load", "Store"]), Some("Load"));
        assert_eq!(super::closest("load", ["Load"]), Some("Load"));
        assert_eq!(super::closest("Xyz", ["Load", "Store"]), None);
        assert_eq!(super::closest("Load", ["Load"]), None);
        assert_eq!(super::closest("Z", ["A", "B"]), None);
        assert_eq!(super::closest("z", ["Z"]), Some("Z"));
        assert_eq!(super::closest("A1", ["A2"]), Some("A2"));
    }

    /// The lower bound only skips candidates that could not have won: the
    /// same answer as comparing every candidate.
    #[test]
    fn the_same_answer_as_comparing_every_candidate() {
        fn naive<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
            let length = name.chars().count();
            let limit = (length / 3).max(1).min(length.saturating_sub(1));
            let mut best: Option<(usize, &str)> = None;
            for &candidate in candidates {
                if candidate == name {
                    continue;
                }
                let distance = if candidate.eq_ignore_ascii_case(name) {
                    0
                } else {
                    strsim::damerau_levenshtein(name, candidate)
                };
                if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
                    best = Some((distance, candidate));
                }
            }
            best.map(|(_, candidate)| candidate)
        }
        let mut rng = fastrand::Rng::with_seed(7);
        let alphabet: Vec<char> = "abAB01_\u{44f}".chars().collect();
        let word = |rng: &mut fastrand::Rng| -> String {
            (0..rng.usize(1..8))
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect()
        };
        for _ in 0..3000 {
            let name = word(&mut rng);
            let owned: Vec<String> = (0..rng.usize(0..30)).map(|_| word(&mut rng)).collect();
            let candidates: Vec<&str> = owned.iter().map(String::as_str).collect();
            assert_eq!(
                super::closest(&name, candidates.iter().copied()),
                naive(&name, &candidates),
                "{name:?} among {candidates:?}"
            );
        }
    }
}
