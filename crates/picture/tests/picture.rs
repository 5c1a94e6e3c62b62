//! The picture of small flows: what each box, wire and column shows, and
//! the SVG of both kinds.

use easyflow_db::{Database, SourceFile, graph_view};
use easyflow_picture::{BoxKind, Document, NodeBox, Picture, picture, to_svg};

fn picture_of(text: &str) -> Picture {
    let db = Database::default();
    let file = SourceFile::new(&db, "t.flow".into(), text.into());
    picture(graph_view(&db, file))
}

fn node<'a>(picture: &'a Picture, id: &str) -> &'a NodeBox {
    picture.boxes.iter().find(|b| b.id == id).unwrap()
}

#[test]
fn a_step_that_does_not_run_exactly_once_has_a_badge_even_zero() {
    let p = picture_of(
        "step Once runs P ();\nstep Thrice runs P (n = sweep [1, 2, 3]);\nstep Never runs P (n = sweep []);",
    );
    assert_eq!(node(&p, "Once").badge, None);
    assert_eq!(node(&p, "Thrice").badge.as_deref(), Some("× 3"));
    // W0404: the step never runs, which the picture must not hide.
    assert_eq!(node(&p, "Never").badge.as_deref(), Some("× 0"));
    assert!(node(&p, "Never").tooltip.ends_with("0 instances"));
}

#[test]
fn a_step_without_a_package_says_so() {
    let p = picture_of("step A runs ();\nstep B runs P.Q (x = A.outs[\"o\"]);");
    let a = node(&p, "A");
    assert_eq!(a.detail, "no package");
    assert!(matches!(
        a.kind,
        BoxKind::Step {
            no_package: true,
            ..
        }
    ));
    assert_eq!(a.tooltip, "step A: no package\nlevel 0");
    assert_eq!(node(&p, "B").tooltip, "step B runs P.Q\nlevel 1");
    let svg = to_svg(&p, Document::Standalone);
    assert!(svg.contains("<text class=\"detail missing\" x=\"12\" y=\"34\">no package</text>"));
}

#[test]
fn an_unresolved_name_has_a_column_of_its_own_before_the_earliest_step_naming_it() {
    let p = picture_of(
        "step A runs P ();\nstep B runs P (x = A.outs[\"o\"], y = Ghost);\nstep C runs P after Ghost;",
    );
    let ghost = node(&p, "?Ghost");
    assert_eq!(ghost.kind, BoxKind::Unresolved);
    assert_eq!(
        (ghost.label.as_str(), ghost.detail.as_str()),
        ("Ghost", "unresolved")
    );
    assert_eq!(ghost.step, "B");
    assert_eq!(
        ghost.tooltip,
        "Ghost: not a step or a required file\nnamed by B, C"
    );
    // C (level 0, only naming the ghost) is the earliest.
    let c = node(&p, "C");
    assert!(ghost.rect.x + ghost.rect.width < c.rect.x);
    // Only the steps' columns are labelled.
    let labels: Vec<&str> = p.columns.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["level 0", "level 1"]);
    assert!(p.columns[0].x > ghost.rect.x);
    let titles: Vec<&str> = p.wires.iter().map(|w| w.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "A → B: data",
            "Ghost → B: data (unresolved)",
            "Ghost → C: control (unresolved)"
        ]
    );
    assert!(p.wires[1].bad && p.wires[1].from == "?Ghost");
}

#[test]
fn steps_on_or_after_a_cycle_share_a_last_column() {
    let p = picture_of(
        "step A runs P ();\nstep B runs P after A, C;\nstep C runs P after B;\nstep D runs P after C;",
    );
    let labels: Vec<&str> = p.columns.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["level 0", "no level (cycle)"]);
    assert!(matches!(
        node(&p, "B").kind,
        BoxKind::Step { in_cycle: true, .. }
    ));
    assert!(matches!(
        node(&p, "D").kind,
        BoxKind::Step {
            in_cycle: false,
            ..
        }
    ));
    assert_eq!(node(&p, "B").rect.x, node(&p, "D").rect.x);
    assert_eq!(
        node(&p, "D").tooltip,
        "step D runs P\nno level (on or after a cycle)"
    );
}

#[test]
fn the_svg_is_well_formed_and_the_embedded_one_leaves_the_styling_to_its_page() {
    let p = picture_of(
        "~step A runs P (n = sweep [1, 2]);\nstep B runs Q (x <- A.outs[\"o\"], y = Nowhere);",
    );
    for document in [Document::Standalone, Document::Embedded] {
        let text = to_svg(&p, document);
        let svg = roxmltree::Document::parse(&text).unwrap();
        let root = svg.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let classes: Vec<&str> = root
            .descendants()
            .filter_map(|n| n.attribute("class"))
            .filter(|c| c.starts_with("node ") || c.starts_with("edge "))
            .collect();
        assert_eq!(
            classes,
            [
                "edge stream",
                "edge data bad",
                "node step long-running",
                "node step",
                "node unresolved"
            ]
        );
        let unresolved = root
            .descendants()
            .find(|n| n.attribute("data-id") == Some("?Nowhere"))
            .unwrap();
        assert_eq!(unresolved.attribute("data-step"), Some("B"));
        let styled = root.children().any(|n| n.has_tag_name("style"));
        assert_eq!(styled, document == Document::Standalone);
        let width: f64 = root.attribute("width").unwrap().parse().unwrap();
        assert!((width - p.width).abs() <= 0.05);
    }
}

#[test]
fn an_empty_flow_has_an_empty_picture() {
    let p = picture_of("");
    assert!(p.boxes.is_empty() && p.wires.is_empty() && p.columns.is_empty());
    roxmltree::Document::parse(&to_svg(&p, Document::Standalone)).unwrap();
}
