//! The members of a step reference (`language.md` §3.1): `A.outs`,
//! `A.Result` and `A.Result.outs`. The one table of their names and of
//! which may follow which; the rules, completion, hover, semantic tokens
//! and the values read them from here.

/// A member a step reference may name after the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepMember {
    /// `A.outs`: the step's output files, indexed by file name.
    Outs,
    /// `A.Result`: the step's result object.
    Result,
}

impl StepMember {
    /// The members right after a step's name, in the order completion
    /// offers them.
    pub const AFTER_STEP: &'static [StepMember] = &[StepMember::Outs, StepMember::Result];

    pub const fn name(self) -> &'static str {
        match self {
            StepMember::Outs => "outs",
            StepMember::Result => "Result",
        }
    }

    /// The member named `name`, if any.
    pub fn from_name(name: &str) -> Option<StepMember> {
        [StepMember::Outs, StepMember::Result]
            .into_iter()
            .find(|member| member.name() == name)
    }

    /// The members that may follow this one; `None` when what follows is
    /// no member (the output files are read by index: `A.outs["x"]`).
    pub const fn followers(self) -> Option<&'static [StepMember]> {
        match self {
            StepMember::Outs => None,
            StepMember::Result => Some(&[StepMember::Outs]),
        }
    }

    /// What it holds, in a few words (completion's detail).
    pub const fn summary(self) -> &'static str {
        match self {
            StepMember::Outs => "output files",
            StepMember::Result => "result object",
        }
    }

    /// The first of `members` (the names after a step's) that may not
    /// stand where it is: its position and name, and the members that
    /// could (in the order of [`StepMember::AFTER_STEP`]).
    pub fn first_misplaced<'a>(
        members: impl IntoIterator<Item = &'a str>,
    ) -> Option<(usize, &'a str, &'static [StepMember])> {
        let mut allowed = StepMember::AFTER_STEP;
        for (at, name) in members.into_iter().enumerate() {
            match StepMember::from_name(name).filter(|member| allowed.contains(member)) {
                Some(member) => match member.followers() {
                    Some(followers) => allowed = followers,
                    None => return None,
                },
                None => return Some((at, name, allowed)),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misplaced_members() {
        let misplaced = |members: &[&'static str]| {
            StepMember::first_misplaced(members.iter().copied())
                .map(|(at, name, allowed)| (at, name, allowed.len()))
        };
        assert_eq!(misplaced(&[]), None);
        assert_eq!(misplaced(&["outs"]), None);
        assert_eq!(misplaced(&["outs", "anything"]), None);
        assert_eq!(misplaced(&["Result"]), None);
        assert_eq!(misplaced(&["Result", "outs"]), None);
        assert_eq!(misplaced(&["Result", "Result"]), Some((1, "Result", 1)));
        assert_eq!(misplaced(&["out"]), Some((0, "out", 2)));
    }
}
