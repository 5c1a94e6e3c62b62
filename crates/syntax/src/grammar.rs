//! The grammar of `language.md` §2 as recursive descent over [`Parser`].
//!
//! Recovery: after the first error in a construct, the rest of it is skipped
//! silently (one problem, one diagnostic) up to a token that resynchronises
//! the parse: the construct's own closer, the next parameter, or a
//! top-level starter (`step`, `~`, `require`, an attribute `[` opening a line).

use crate::SyntaxKind::{self, *};
use crate::parser::{MAX_DEPTH, Parser};

pub(crate) fn source_file(p: &mut Parser<'_>) {
    let m = p.start();
    while !p.at_eof() {
        match p.current() {
            L_BRACK if p.nth(1) == FLOW_KW => flow_attribute(p),
            L_BRACK | STEP_KW | TILDE => step(p),
            REQUIRE_KW => require(p),
            _ => {
                p.error_and_bump("`step`, `require` or an attribute");
                skip_until(p, &[]);
            }
        }
    }
    m.complete(p, SOURCE_FILE);
}

/// A token where a new top-level clause surely starts.
fn at_top_level_start(p: &Parser<'_>) -> bool {
    match p.current() {
        EOF | STEP_KW | TILDE | REQUIRE_KW => true,
        L_BRACK => {
            p.at_line_start() && (p.nth(1) == FLOW_KW || (p.nth(1) == IDENT && p.nth(2) == EQ))
        }
        _ => false,
    }
}

/// Wraps tokens in one error node, without a new diagnostic, up to one of
/// `stops` outside brackets or a top-level starter.
fn skip_until(p: &mut Parser<'_>, stops: &[SyntaxKind]) {
    if at_top_level_start(p) || stops.contains(&p.current()) {
        return;
    }
    let m = p.start();
    let mut nesting = 0u32;
    while !at_top_level_start(p) {
        let kind = p.current();
        if nesting == 0 && stops.contains(&kind) {
            break;
        }
        match kind {
            L_BRACK | L_PAREN => nesting += 1,
            R_BRACK | R_PAREN if nesting > 0 => nesting -= 1,
            _ => {}
        }
        p.bump();
    }
    m.complete(p, ERROR_NODE);
}

fn flow_attribute(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(); // `[`
    p.bump(); // `flow`
    let complete =
        p.expect(COLON) && name(p, NAME, "an attribute key") && p.expect(EQ) && expression(p);
    if complete {
        p.expect(R_BRACK);
    } else {
        skip_until(p, &[R_BRACK]);
        p.eat(R_BRACK);
    }
    m.complete(p, FLOW_ATTRIBUTE);
}

fn require(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(); // `require`
    let mut complete = name(p, NAME, "a file name");
    while complete && p.eat(COMMA) {
        complete = name(p, NAME, "a file name");
    }
    if complete && !p.at(SEMICOLON) {
        p.error_missing("`,` or `;`");
        complete = false;
    }
    if !complete {
        skip_until(p, &[SEMICOLON]);
    }
    p.eat(SEMICOLON);
    m.complete(p, REQUIRE);
}

fn attribute(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(); // `[`
    let complete = name(p, NAME, "an attribute key") && p.expect(EQ) && expression(p);
    if complete {
        p.expect(R_BRACK);
    } else {
        skip_until(p, &[R_BRACK]);
        p.eat(R_BRACK);
    }
    m.complete(p, ATTRIBUTE);
}

fn step(p: &mut Parser<'_>) {
    let m = p.start();
    let first = p.pos();
    while p.at(L_BRACK) && p.nth(1) != FLOW_KW {
        attribute(p);
    }
    if !p.at(STEP_KW) && !p.at(TILDE) {
        let range = p.range_since(first);
        p.error_at(
            range,
            format!("attribute is not attached to a step (found {})", p.found()),
        );
        m.complete(p, ERROR_NODE);
        return;
    }
    let mut header_ok = true;
    if p.at(TILDE) {
        if p.nth(1) == STEP_KW && !p.next_is_adjacent() {
            let range = p.current_range();
            p.error_at(
                range,
                "`~` must be written directly before `step`".to_string(),
            );
        }
        p.bump();
        if !p.at(STEP_KW) {
            p.error_missing("`step` after `~`");
            header_ok = false;
        }
    }
    header_ok = header_ok
        && p.expect(STEP_KW)
        && name(p, NAME, "a step name")
        && p.expect(RUNS_KW)
        && package_path(p);
    if !header_ok {
        skip_until(p, &[L_PAREN, AFTER_KW, ON_KW, SEMICOLON]);
    }
    while p.at(AFTER_KW) || p.at(ON_KW) {
        dependency_clause(p);
    }
    if p.at(L_PAREN) {
        param_block(p);
    } else if header_ok {
        p.error_missing("`(`");
        if !at_top_level_start(p) && !p.at(PRE_KW) && !p.at(POST_KW) {
            skip_until(p, &[SEMICOLON, PRE_KW, POST_KW]);
        }
    }
    while p.at(PRE_KW) || p.at(POST_KW) {
        let section = p.start();
        p.bump();
        p.expect(CODE_BLOCK);
        section.complete(p, CODE_SECTION);
    }
    p.eat(SEMICOLON);
    m.complete(p, STEP);
}

/// `IDENT` wrapped in a `kind` node (`NAME` or `NAME_REF`).
fn name(p: &mut Parser<'_>, kind: SyntaxKind, what: &str) -> bool {
    if p.at(IDENT) {
        let m = p.start();
        p.bump();
        m.complete(p, kind);
        true
    } else {
        p.error_missing(what)
    }
}

fn package_path(p: &mut Parser<'_>) -> bool {
    if !p.at(IDENT) {
        return p.error_missing("a package name");
    }
    let m = p.start();
    p.bump();
    let mut complete = true;
    while complete && p.eat(DOT) {
        if !p.eat(IDENT) {
            complete = p.error_missing("a name after `.`");
        }
    }
    m.complete(p, PACKAGE_PATH);
    complete
}

fn dependency_clause(p: &mut Parser<'_>) {
    let m = p.start();
    let kind = if p.at(AFTER_KW) {
        AFTER_CLAUSE
    } else {
        ON_CLAUSE
    };
    p.bump();
    let mut complete = name(p, NAME_REF, "a step name");
    while complete && p.eat(COMMA) {
        complete = name(p, NAME_REF, "a step name");
    }
    if !complete {
        skip_until(p, &[L_PAREN, AFTER_KW, ON_KW, SEMICOLON]);
    }
    m.complete(p, kind);
}

fn param_block(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(); // `(`
    let mut seen_params = false;
    let mut seen_exec = false;
    while !p.at(R_PAREN) && !at_top_level_start(p) {
        let label = p.at_section_label();
        match label {
            Some(APP_KW) if seen_params => {
                let range = p.current_range();
                p.error_at(
                    range,
                    "the `app:` section must open the parameter list".to_string(),
                );
            }
            Some(EXEC_KW) if seen_exec => {
                let range = p.current_range();
                p.error_at(range, "the `exec:` section is given twice".to_string());
            }
            _ => {}
        }
        seen_exec |= label == Some(EXEC_KW);
        seen_params = true;
        param_section(p, label);
    }
    p.expect(R_PAREN);
    m.complete(p, PARAM_BLOCK);
}

fn at_param_start(p: &Parser<'_>) -> bool {
    (p.at(IDENT) && matches!(p.nth(1), EQ | ARROW)) || (p.at(COLON) && p.nth(1) == IDENT)
}

fn param_section(p: &mut Parser<'_>, label: Option<SyntaxKind>) {
    let m = p.start();
    if let Some(keyword) = label {
        p.bump_as(keyword);
        p.bump(); // `:`
        if label == Some(EXEC_KW) && (p.at(R_PAREN) || at_top_level_start(p)) {
            p.error_missing("a parameter after `exec:`");
        }
    }
    let stops = [COMMA, R_PAREN];
    loop {
        if p.at(R_PAREN) || at_top_level_start(p) || p.at_section_label().is_some() {
            break;
        }
        if p.at(IDENT) || p.at(COLON) {
            if !param(p) {
                skip_to_next_param(p, &stops);
            }
        } else {
            p.error_and_bump("a parameter");
            skip_to_next_param(p, &stops);
        }
        if p.eat(COMMA) {
            continue;
        }
        if p.at(R_PAREN) || at_top_level_start(p) || p.at_section_label().is_some() {
            break;
        }
        if at_param_start(p) {
            p.error_missing("`,` or `)`");
            continue;
        }
        p.error_and_bump("`,` or `)`");
        skip_to_next_param(p, &stops);
        p.eat(COMMA);
    }
    m.complete(p, PARAM_SECTION);
}

/// Skips silently to a `stops` token, the next parameter, or a section label.
fn skip_to_next_param(p: &mut Parser<'_>, stops: &[SyntaxKind]) {
    if at_param_start(p) || p.at_section_label().is_some() {
        return;
    }
    let m = p.start();
    let mut nesting = 0u32;
    while !at_top_level_start(p) {
        if nesting == 0
            && (stops.contains(&p.current()) || at_param_start(p) || p.at_section_label().is_some())
        {
            break;
        }
        match p.current() {
            L_BRACK | L_PAREN => nesting += 1,
            R_BRACK | R_PAREN if nesting > 0 => nesting -= 1,
            _ => {}
        }
        p.bump();
    }
    m.complete(p, ERROR_NODE);
}

/// `[:] name (= | <-) [sweep] expression`. False after a reported error.
fn param(p: &mut Parser<'_>) -> bool {
    let m = p.start();
    p.eat(COLON);
    let complete = name(p, NAME, "a parameter name")
        && {
            if p.at(EQ) || p.at(ARROW) {
                p.bump();
                true
            } else {
                p.error_missing("`=` or `<-`")
            }
        }
        && {
            p.eat(SWEEP_KW);
            expression(p)
        };
    m.complete(p, PARAM);
    complete
}

fn at_expression_start(p: &Parser<'_>) -> bool {
    p.current().is_literal() || matches!(p.current(), L_BRACK | IDENT)
}

/// One expression. False (with an error reported) when none is here.
pub(crate) fn expression(p: &mut Parser<'_>) -> bool {
    match p.current() {
        kind if kind.is_literal() => {
            let m = p.start();
            p.bump();
            m.complete(p, LITERAL);
            true
        }
        L_BRACK => {
            list(p);
            true
        }
        IDENT => {
            reference(p);
            true
        }
        _ => p.error_missing("an expression"),
    }
}

/// Whether nesting may go one level deeper; if not, the bracketed text is
/// kept flat in an error node with one diagnostic.
fn enter_nesting(p: &mut Parser<'_>) -> bool {
    if p.depth < MAX_DEPTH {
        p.depth += 1;
        return true;
    }
    let range = p.current_range();
    p.error_at(
        range,
        format!("brackets nested deeper than {MAX_DEPTH} levels"),
    );
    let m = p.start();
    p.bump(); // `[`
    let mut nesting = 1u32;
    while nesting > 0 && !at_top_level_start(p) {
        match p.current() {
            L_BRACK => nesting += 1,
            R_BRACK => nesting -= 1,
            _ => {}
        }
        p.bump();
    }
    m.complete(p, ERROR_NODE);
    false
}

fn list(p: &mut Parser<'_>) {
    if !enter_nesting(p) {
        return;
    }
    let m = p.start();
    p.bump(); // `[`
    if !p.eat(R_BRACK) {
        loop {
            let element_ok = expression(p);
            if !element_ok && !matches!(p.current(), COMMA | R_BRACK) {
                skip_until(p, &[COMMA, R_BRACK, R_PAREN]);
                if !matches!(p.current(), COMMA | R_BRACK) {
                    break;
                }
            }
            if p.at(COMMA) {
                let comma = p.current_range();
                p.bump();
                if p.at(R_BRACK) {
                    if element_ok {
                        p.error_at(
                            comma,
                            "expected an expression, found `]`: lists do not allow a trailing comma"
                                .to_string(),
                        );
                    }
                    p.bump();
                    break;
                }
                continue;
            }
            if p.eat(R_BRACK) || (!p.error_missing("`,` or `]`") && !at_expression_start(p)) {
                break;
            }
        }
    }
    p.depth -= 1;
    m.complete(p, LIST_EXPR);
}

fn reference(p: &mut Parser<'_>) {
    let m = p.start();
    segment(p);
    while p.at(DOT) {
        p.bump();
        if p.at(IDENT) {
            segment(p);
        } else {
            p.error_missing("a member name after `.`");
            break;
        }
    }
    m.complete(p, REF_EXPR);
}

fn segment(p: &mut Parser<'_>) {
    let m = p.start();
    name(p, NAME_REF, "a name");
    if p.at(L_BRACK) && enter_nesting(p) {
        let indexer = p.start();
        p.bump(); // `[`
        if expression(p) {
            p.expect(R_BRACK);
        } else {
            skip_until(p, &[R_BRACK, R_PAREN, COMMA]);
            p.eat(R_BRACK);
        }
        p.depth -= 1;
        indexer.complete(p, INDEXER);
    }
    m.complete(p, SEGMENT);
}
