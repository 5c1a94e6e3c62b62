//! After `Step.` or `Step.Result.`: the members that may stand there
//! ([`StepMember`]).

use easyflow_syntax::StepMember;

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, Insert};
use crate::docs::member_doc;

pub(crate) fn complete(ctx: &CompletionContext<'_>, members: &[StepMember]) -> Vec<CompletionItem> {
    members
        .iter()
        .map(|&member| {
            ctx.item(
                member.name(),
                CompletionKind::Member,
                Insert::Text(member.name().to_string()),
            )
            .detail(Some(member.summary().to_string()))
            .documentation(Some(member_doc(member).1.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::super::tests::{STEPS, check, labels};

    #[test]
    fn members() {
        check(
            &format!("{STEPS}step T runs P (x = Load.$0);"),
            expect![[r#"
                Member outs
                Member Result
            "#]],
        );
        check(
            &format!("{STEPS}step T runs P (x = [Load.Res$0]);"),
            expect![[r#"
                Member outs ‹Res›
                Member Result ‹Res›
            "#]],
        );
        check(
            &format!("{STEPS}step T runs P (x = Load.Result.$0"),
            expect![[r#"
                Member outs
            "#]],
        );
        for text in [
            "step T runs P (x = data.$0);",
            "step T runs P (x = Unknown.$0);",
            "step T runs Pkg.$0",
            "step T runs P (x = Load.outs[\"a\"].$0);",
            "step T runs P (x = Load.outs.$0);",
        ] {
            assert_eq!(
                labels(&format!("{STEPS}{text}")),
                Vec::<String>::new(),
                "{text}"
            );
        }
    }
}
