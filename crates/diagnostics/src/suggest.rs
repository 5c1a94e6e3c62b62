//! "Did you mean" suggestions, one rule for every kind of name (steps,
//! files, attribute keys, constants, capabilities, configuration keys).

/// The candidate closest to `name` in spelling, when it is close enough to be
/// a likely typo: at most a third of its characters differ (at least one may),
/// and not all of them (`Z` is no typo of `A`). Ties go to the earliest
/// candidate.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = name.chars().count();
    let limit = (length / 3).max(1).min(length.saturating_sub(1));
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
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
}
