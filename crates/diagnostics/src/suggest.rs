//! "Did you mean" suggestions, one rule for every kind of name (steps,
//! files, attribute keys, constants, capabilities, configuration keys).

/// The candidate closest to `name` in spelling, when it is close enough to be
/// a likely typo: at most a third of its characters differ (at least one may),
/// and not all of them (`Z` is no typo of `A`). Ties go to the earliest
/// candidate.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = limit_for(name.chars().count());
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

/// The largest distance [`closest`] accepts for a name of `length` characters.
fn limit_for(length: usize) -> usize {
    (length / 3).max(1).min(length.saturating_sub(1))
}

/// How many characters of each of 32 classes a name has (ASCII letters
/// lowered, as [`closest`] takes a difference of case for distance 0): a
/// cheaper bag than [`CharBag`], for every name of a [`NameIndex`]. Merging
/// characters into classes only lowers the bound, so it stays one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ClassBag([u8; 32]);

impl ClassBag {
    fn of(name: &str) -> ClassBag {
        let mut counts = [0u8; 32];
        for c in name.chars() {
            let class = if c.is_ascii() {
                let lower = c.to_ascii_lowercase() as u32;
                match lower {
                    0x30..=0x39 => lower - 0x30,
                    _ => 10 + lower % 22,
                }
            } else {
                c as u32 % 32
            };
            let count = &mut counts[class as usize];
            *count = count.saturating_add(1);
        }
        ClassBag(counts)
    }

    /// A lower bound of the Damerau–Levenshtein distance between the names,
    /// given their lengths in characters (see [`CharBag::distance_to`]):
    /// the larger of what one has and the other lacks, which is half their
    /// sum (the bags' difference, one instruction per 16 classes) and
    /// their difference (that of the lengths). A saturated count only
    /// lowers it.
    fn distance_to(&self, length: usize, other: &ClassBag, other_length: usize) -> usize {
        let sum: u32 = self
            .0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| u32::from(a.abs_diff(*b)))
            .sum();
        (sum as usize + length.abs_diff(other_length)) / 2
    }
}

/// A name as the index compares it: what decides, cheaply, that another
/// cannot be its suggestion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    length: usize,
    limit: usize,
    bag: ClassBag,
}

impl Probe {
    pub fn of(name: &str) -> Probe {
        let length = name.chars().count();
        Probe {
            length,
            limit: limit_for(length),
            bag: ClassBag::of(name),
        }
    }

    /// Whether the name of `other` may be the suggestion for this one
    /// (`false` means it cannot be, whatever the other names).
    pub fn may_suggest(&self, other: &Probe) -> bool {
        other.length.abs_diff(self.length) <= self.limit
            && self.bag.distance_to(self.length, &other.bag, other.length) <= self.limit
    }
}

/// Which of 64 classes of characters a name has: a first test, cheaper
/// still than the bags (each class one has and the other lacks is at least
/// one character of difference).
fn presence_of(name: &str) -> u64 {
    let mut mask = 0u64;
    for c in name.chars() {
        let class = match c.to_ascii_lowercase() {
            digit @ '0'..='9' => digit as u32 - '0' as u32,
            letter @ 'a'..='z' => 10 + letter as u32 - 'a' as u32,
            other => 36 + other as u32 % 28,
        };
        mask |= 1 << class;
    }
    mask
}

/// The names of one length: their presence masks apart (scanned first, in
/// order), and the rest.
#[derive(Debug, Clone, Default)]
struct Bucket {
    masks: Vec<u64>,
    entries: Vec<IndexEntry>,
}

#[derive(Debug, Clone)]
struct IndexEntry {
    name: Box<str>,
    bag: ClassBag,
}

/// Names for "did you mean" queries that compare a name with the few that
/// may be close rather than with every name: bucketed by length in
/// characters (no name further in length than the limit can be close
/// enough), each with a presence mask and a [`ClassBag`] (two cheap lower
/// bounds of the distance, so that few names are compared). Names come
/// and go one at a time, so a large file's index follows its edits.
#[derive(Debug, Clone)]
pub struct NameIndex<S = std::collections::hash_map::RandomState> {
    /// Per length in characters.
    by_length: Vec<Bucket>,
    /// Each name's length and place in its bucket.
    slots: std::collections::HashMap<Box<str>, (u32, u32), S>,
}

impl<S: std::hash::BuildHasher + Default> Default for NameIndex<S> {
    fn default() -> Self {
        NameIndex {
            by_length: Vec::new(),
            slots: std::collections::HashMap::default(),
        }
    }
}

impl<S: std::hash::BuildHasher> NameIndex<S> {
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    pub fn contains(&self, name: &str) -> bool {
        self.slots.contains_key(name)
    }

    /// Adds a name (once however often it is added).
    pub fn insert(&mut self, name: &str) {
        if self.slots.contains_key(name) {
            return;
        }
        let length = name.chars().count();
        if self.by_length.len() <= length {
            self.by_length.resize_with(length + 1, Bucket::default);
        }
        let bucket = &mut self.by_length[length];
        self.slots
            .insert(name.into(), (length as u32, bucket.entries.len() as u32));
        bucket.masks.push(presence_of(name));
        bucket.entries.push(IndexEntry {
            name: name.into(),
            bag: ClassBag::of(name),
        });
    }

    pub fn remove(&mut self, name: &str) {
        let Some((length, at)) = self.slots.remove(name) else {
            return;
        };
        let bucket = &mut self.by_length[length as usize];
        bucket.masks.swap_remove(at as usize);
        bucket.entries.swap_remove(at as usize);
        if let Some(moved) = bucket.entries.get(at as usize)
            && let Some(slot) = self.slots.get_mut(&*moved.name)
        {
            slot.1 = at;
        }
    }

    /// What [`closest`] answers for `name` among the indexed names in the
    /// order `order` gives (`None`: not a candidate), which it is asked
    /// only for names close enough to win: the closest, ties going to the
    /// first in that order.
    pub fn closest<O: Ord>(&self, name: &str, order: impl Fn(&str) -> Option<O>) -> Option<&str> {
        let length = name.chars().count();
        let limit = limit_for(length);
        let bag = ClassBag::of(name);
        let mask = presence_of(name);
        let mut best: Option<(usize, O, &str)> = None;
        let lengths = length.saturating_sub(limit)..=length + limit;
        for (other_length, bucket) in lengths.filter_map(|l| Some((l, self.by_length.get(l)?))) {
            let apart = length.abs_diff(other_length);
            for (at, other) in bucket.masks.iter().enumerate() {
                let needed = best.as_ref().map_or(limit, |(d, _, _)| *d).min(limit);
                if ((mask ^ other).count_ones() as usize + apart) / 2 > needed {
                    continue;
                }
                let entry = &bucket.entries[at];
                if bag.distance_to(length, &entry.bag, other_length) > needed
                    || &*entry.name == name
                {
                    continue;
                }
                let candidate = &*entry.name;
                let distance = if candidate.eq_ignore_ascii_case(name) {
                    0
                } else {
                    strsim::damerau_levenshtein(name, candidate)
                };
                if distance > needed {
                    continue;
                }
                let Some(rank) = order(candidate) else {
                    continue;
                };
                if best
                    .as_ref()
                    .is_none_or(|(d, o, _)| (distance, &rank) < (*d, o))
                {
                    best = Some((distance, rank, candidate));
                }
            }
        }
        best.map(|(_, _, candidate)| candidate)
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

    /// The index gives what [`closest`] gives over the same names in the
    /// same order, whatever came and went.
    #[test]
    fn the_index_agrees_with_closest() {
        let mut rng = fastrand::Rng::with_seed(11);
        let alphabet: Vec<char> = "abAB01_\u{44f}".chars().collect();
        let word = |rng: &mut fastrand::Rng| -> String {
            (0..rng.usize(1..8))
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect()
        };
        for _ in 0..300 {
            let mut index = super::NameIndex::<std::collections::hash_map::RandomState>::default();
            let mut names: Vec<String> = Vec::new();
            for _ in 0..rng.usize(0..40) {
                let name = word(&mut rng);
                if rng.bool() || names.is_empty() {
                    index.insert(&name);
                    if !names.contains(&name) {
                        names.push(name);
                    }
                } else {
                    let gone = names.remove(rng.usize(..names.len()));
                    index.remove(&gone);
                }
            }
            assert_eq!(index.len(), names.len());
            for _ in 0..10 {
                let name = word(&mut rng);
                let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
                let order = |candidate: &str| candidates.iter().position(|c| *c == candidate);
                assert_eq!(
                    index.closest(&name, order),
                    super::closest(&name, candidates.iter().copied()),
                    "{name:?} among {candidates:?}"
                );
                for candidate in &candidates {
                    if super::closest(&name, [*candidate]).is_some() {
                        let probe = super::Probe::of(&name);
                        assert!(probe.may_suggest(&super::Probe::of(candidate)));
                    }
                }
            }
        }
    }
}
