//! checkstyle XML (the format sapcli's `atc run --output checkstyle`, Jenkins' warnings plugin
//! and reviewdog read): one `<file name>` per abapGit-named source file, one
//! `<error line column severity message source>` per finding; `source` is the rule id and the
//! column is 1-based. Written with `quick-xml`.

use super::super::atc_model::Finding;
use super::super::paths::PathScheme;
use quick_xml::events::{BytesDecl, Event};
use quick_xml::Writer;

/// The checkstyle report of the findings.
pub(crate) fn render(findings: &[Finding], paths: &PathScheme) -> String {
    let mut files: Vec<(String, Vec<&Finding>)> = Vec::new();
    for f in findings {
        let file = paths.file(&f.object_name, &f.object_type, f.part.as_deref());
        match files.iter_mut().find(|(name, _)| *name == file) {
            Some((_, list)) => list.push(f),
            None => files.push((file, vec![f])),
        }
    }
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let written = write(&mut w, &files);
    match written {
        Ok(()) => String::from_utf8_lossy(&w.into_inner()).into_owned() + "\n",
        Err(e) => format!("<!-- the checkstyle report could not be written: {e} -->\n"),
    }
}

fn write(w: &mut Writer<Vec<u8>>, files: &[(String, Vec<&Finding>)]) -> std::io::Result<()> {
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.create_element("checkstyle")
        .with_attribute(("version", "4.3"))
        .write_inner_content(|w| {
            for (name, list) in files {
                w.create_element("file")
                    .with_attribute(("name", name.as_str()))
                    .write_inner_content(|w| {
                        for f in list {
                            error(w, f)?;
                        }
                        Ok(())
                    })?;
            }
            Ok(())
        })?;
    Ok(())
}

fn error(w: &mut Writer<Vec<u8>>, f: &Finding) -> std::io::Result<()> {
    let line = f.line.map(|l| l.to_string());
    let column = f.line.and(f.column).map(|c| (c + 1).to_string());
    let mut e = w.create_element("error");
    if let Some(line) = &line {
        e = e.with_attribute(("line", line.as_str()));
    }
    if let Some(column) = &column {
        e = e.with_attribute(("column", column.as_str()));
    }
    e.with_attribute(("severity", f.severity.name()))
        .with_attribute(("message", f.message.as_str()))
        .with_attribute(("source", f.rule_id.as_str()))
        .write_empty()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::atc_model::Severity;

    #[test]
    fn files_with_their_errors() {
        let f = |part: &str, line: Option<u32>, p: i64| Finding {
            object_name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
            priority: Some(p),
            severity: Severity::of_priority(Some(p)),
            rule_id: "CHK/MSG".into(),
            check_title: None,
            message: "a \"quoted\" <msg>".into(),
            part: Some(part.into()),
            line,
            column: Some(4),
        };
        let xml = render(
            &[
                f("main", Some(3), 1),
                f("testclasses", None, 3),
                f("main", Some(9), 2),
            ],
            &PathScheme::new(None),
        );
        assert!(
            xml.starts_with(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">"
            ),
            "{xml}"
        );
        assert_eq!(xml.matches("<file ").count(), 2, "{xml}");
        assert!(xml.contains(r#"<error line="3" column="5" severity="error" message="a &quot;quoted&quot; &lt;msg&gt;" source="CHK/MSG"/>"#), "{xml}");
        assert!(
            xml.contains(r#"<file name="src/zcl_x.clas.testclasses.abap">"#),
            "{xml}"
        );
        assert!(xml.contains(r#"<error severity="info""#), "{xml}");
    }
}
