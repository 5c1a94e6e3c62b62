//! "Did you mean" for capability names (the same rule as the db's names).

/// The candidate closest to `name` in spelling, when it is close enough to be
/// a likely typo: at most a third of its characters differ (at least one may),
/// and not all of them. A difference of case alone is closest. Ties go to the
/// earliest candidate.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
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

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn close_names_only() {
        assert_eq!(closest("GPUS", ["compute", "CPU", "GPU"]), Some("GPU"));
        assert_eq!(closest("gpu", ["CPU", "GPU"]), Some("GPU"));
        assert_eq!(closest("fpga", ["compute", "GPU"]), None);
        assert_eq!(closest("X", ["Y"]), None);
    }
}
