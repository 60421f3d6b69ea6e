//! Cobertura XML (GitLab's coverage visualisation, Jenkins, Azure DevOps and `pycobertura`
//! read it): one `<package>` holding one `<class>` per object, named after it, whose
//! `filename` is the abapGit-named main source, whose `line-rate` and `branch-rate` are
//! adt-ls's statement and branch rates, and whose `<lines>` are adt-ls's statement-level
//! lines (`branch="true"` with `condition-coverage` for branching statements). Lines of other
//! source parts get a class of their own (`ZCL_X.testclasses`). The totals on `<coverage>` add
//! up adt-ls's counts. Written with `quick-xml`.

use super::super::coverage_model::{Count, Line, ObjectCoverage};
use super::super::paths::PathScheme;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;

/// Executed and total over the objects, from the counts or else the lines.
pub(crate) fn totals(objects: &[ObjectCoverage]) -> (Count, Count) {
    let mut statements = NOTHING;
    let mut branches = NOTHING;
    for o in objects {
        statements = add(statements, o.statements.unwrap_or(line_hits(&o.lines)));
        branches = add(branches, o.branches.unwrap_or(line_branches(&o.lines)));
    }
    (statements, branches)
}

/// Nothing executed of nothing.
const NOTHING: Count = Count {
    executed: 0,
    total: 0,
};

fn add(a: Count, b: Count) -> Count {
    Count {
        executed: a.executed + b.executed,
        total: a.total + b.total,
    }
}

/// The lines that ran of all `lines`.
fn line_hits<'a>(lines: impl IntoIterator<Item = &'a Line>) -> Count {
    lines.into_iter().fold(NOTHING, |c, l| {
        add(
            c,
            Count {
                executed: u64::from(l.hits > 0),
                total: 1,
            },
        )
    })
}

/// The branch counts of `lines` added up.
fn line_branches<'a>(lines: impl IntoIterator<Item = &'a Line>) -> Count {
    lines
        .into_iter()
        .filter_map(|l| l.branches)
        .fold(NOTHING, add)
}

/// A rate from a count (1 when there is nothing to cover), as Cobertura writes it.
pub(crate) fn fraction(c: Count) -> f64 {
    if c.total == 0 {
        1.0
    } else {
        c.executed as f64 / c.total as f64
    }
}

/// The shortest text that reads back as the same number (`0.4`, `0.42857142857142855`, `1`).
fn rate(f: f64) -> String {
    format!("{}", f.clamp(0.0, 1.0))
}

/// The Cobertura report; `timestamp` in milliseconds since 1970.
pub(crate) fn render(objects: &[ObjectCoverage], paths: &PathScheme, timestamp: u128) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    match write(&mut w, objects, paths, timestamp) {
        Ok(()) => String::from_utf8_lossy(&w.into_inner()).into_owned() + "\n",
        Err(e) => format!("<!-- the Cobertura report could not be written: {e} -->\n"),
    }
}

fn write(
    w: &mut Writer<Vec<u8>>,
    objects: &[ObjectCoverage],
    paths: &PathScheme,
    timestamp: u128,
) -> std::io::Result<()> {
    let (statements, branches) = totals(objects);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.write_event(Event::DocType(BytesText::from_escaped(
        "coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\"",
    )))?;
    let (lc, lv) = (
        statements.executed.to_string(),
        statements.total.to_string(),
    );
    let (bc, bv) = (branches.executed.to_string(), branches.total.to_string());
    w.create_element("coverage")
        .with_attribute(("line-rate", rate(fraction(statements)).as_str()))
        .with_attribute(("branch-rate", rate(fraction(branches)).as_str()))
        .with_attribute(("lines-covered", lc.as_str()))
        .with_attribute(("lines-valid", lv.as_str()))
        .with_attribute(("branches-covered", bc.as_str()))
        .with_attribute(("branches-valid", bv.as_str()))
        .with_attribute(("complexity", "0"))
        .with_attribute(("version", env!("CARGO_PKG_VERSION")))
        .with_attribute(("timestamp", timestamp.to_string().as_str()))
        .write_inner_content(|w| {
            w.create_element("sources").write_inner_content(|w| {
                w.create_element("source")
                    .write_text_content(BytesText::new("."))?;
                Ok(())
            })?;
            w.create_element("packages")
                .write_inner_content(|w| package(w, objects, paths, (statements, branches)))?;
            Ok(())
        })?;
    Ok(())
}

fn package(
    w: &mut Writer<Vec<u8>>,
    objects: &[ObjectCoverage],
    paths: &PathScheme,
    (statements, branches): (Count, Count),
) -> std::io::Result<()> {
    w.create_element("package")
        .with_attribute(("name", "abap"))
        .with_attribute(("line-rate", rate(fraction(statements)).as_str()))
        .with_attribute(("branch-rate", rate(fraction(branches)).as_str()))
        .with_attribute(("complexity", "0"))
        .write_inner_content(|w| {
            w.create_element("classes").write_inner_content(|w| {
                for o in objects {
                    object_classes(w, o, paths)?;
                }
                Ok(())
            })?;
            Ok(())
        })?;
    Ok(())
}

/// The object's class (its main source and adt-ls's rates) and one per other part.
fn object_classes(
    w: &mut Writer<Vec<u8>>,
    o: &ObjectCoverage,
    paths: &PathScheme,
) -> std::io::Result<()> {
    let mut parts = o.parts();
    if !parts.iter().any(|p| p == "main") {
        parts.insert(0, "main".into());
    }
    for part in parts {
        let lines: Vec<&Line> = o.lines.iter().filter(|l| l.part == part).collect();
        let (name, line_rate, branch_rate) = if part == "main" {
            (o.name.clone(), o.line_fraction(), o.branch_fraction())
        } else {
            (
                format!("{}.{part}", o.name),
                fraction(line_hits(lines.iter().copied())),
                fraction(line_branches(lines.iter().copied())),
            )
        };
        let file = paths.file(&o.name, &o.object_type, Some(&part));
        w.create_element("class")
            .with_attribute(("name", name.as_str()))
            .with_attribute(("filename", file.as_str()))
            .with_attribute(("line-rate", rate(line_rate).as_str()))
            .with_attribute(("branch-rate", rate(branch_rate).as_str()))
            .with_attribute(("complexity", "0"))
            .write_inner_content(|w| {
                w.create_element("methods").write_empty()?;
                w.create_element("lines").write_inner_content(|w| {
                    for l in &lines {
                        line(w, l)?;
                    }
                    Ok(())
                })?;
                Ok(())
            })?;
    }
    Ok(())
}

fn line(w: &mut Writer<Vec<u8>>, l: &Line) -> std::io::Result<()> {
    let (number, hits) = (l.line.to_string(), l.hits.to_string());
    let e = w
        .create_element("line")
        .with_attribute(("number", number.as_str()))
        .with_attribute(("hits", hits.as_str()));
    match l.branches {
        Some(b) if b.total > 0 => {
            let pct = (fraction(b) * 100.0).round();
            let condition = format!("{pct}% ({}/{})", b.executed, b.total);
            e.with_attribute(("branch", "true"))
                .with_attribute(("condition-coverage", condition.as_str()))
                .write_empty()?;
        }
        _ => {
            e.with_attribute(("branch", "false")).write_empty()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::report::test_fixtures::{count, line};

    fn object(lines: Vec<Line>) -> ObjectCoverage {
        ObjectCoverage {
            name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
            statement_rate: Some(40.0),
            branch_rate: Some(50.0),
            procedure_rate: Some(50.0),
            statements: Some(count(2, 5)),
            branches: Some(count(1, 2)),
            procedures: None,
            lines,
        }
    }

    #[test]
    fn classes_with_adt_ls_rates_and_lines() {
        let lines = vec![
            line("main", 8, 1, Some(count(1, 2))),
            line("main", 9, 0, None),
            line("macros", 2, 1, None),
        ];
        let xml = render(&[object(lines)], &PathScheme::new(None), 7);
        assert!(xml.contains(r#"<coverage line-rate="0.4" branch-rate="0.5" lines-covered="2" lines-valid="5" branches-covered="1" branches-valid="2""#), "{xml}");
        assert!(xml.contains(r#"<class name="ZCL_X" filename="src/zcl_x.clas.abap" line-rate="0.4" branch-rate="0.5""#), "{xml}");
        assert!(
            xml.contains(
                r#"<line number="8" hits="1" branch="true" condition-coverage="50% (1/2)"/>"#
            ),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<line number="9" hits="0" branch="false"/>"#),
            "{xml}"
        );
        assert!(
            xml.contains(
                r#"<class name="ZCL_X.macros" filename="src/zcl_x.clas.macros.abap" line-rate="1""#
            ),
            "{xml}"
        );
        assert!(xml.contains("<!DOCTYPE coverage SYSTEM"), "{xml}");
    }

    #[test]
    fn totals_fall_back_to_the_lines() {
        let mut o = object(vec![line("main", 1, 0, None)]);
        o.statements = None;
        o.branches = None;
        let (s, b) = totals(&[o]);
        assert_eq!((s.executed, s.total, b.total), (0, 1, 0));
        assert_eq!(fraction(b), 1.0);
    }
}
