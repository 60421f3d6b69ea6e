//! LCOV tracefiles (`lcov --summary`, genhtml, Codecov, Coveralls read them): one record per
//! source file (`SF:` the abapGit-named file), `DA:<line>,<hits>` per statement-level line,
//! `BRDA:<line>,0,<branch>,<taken>` per branch, and the `LF`/`LH`, `BRF`/`BRH` totals of the
//! file. LCOV has no place for object-level rates: without adt-ls's statement-level lines a
//! record has only its totals, from adt-ls's counts.

use super::super::coverage_model::{Line, ObjectCoverage};
use super::super::paths::PathScheme;
use std::fmt::Write;

/// The LCOV tracefile of the objects.
pub(crate) fn render(objects: &[ObjectCoverage], paths: &PathScheme) -> String {
    let mut out = String::new();
    for o in objects {
        let mut parts = o.parts();
        if parts.is_empty() {
            parts.push("main".into());
        }
        for part in parts {
            let lines: Vec<&Line> = o.lines.iter().filter(|l| l.part == part).collect();
            record(&mut out, o, &part, &lines, paths);
        }
    }
    out
}

fn record(out: &mut String, o: &ObjectCoverage, part: &str, lines: &[&Line], paths: &PathScheme) {
    let _ = writeln!(out, "TN:");
    let _ = writeln!(
        out,
        "SF:{}",
        paths.file(&o.name, &o.object_type, Some(part))
    );
    let (mut brf, mut brh) = (0u64, 0u64);
    for l in lines {
        if let Some(b) = l.branches {
            for i in 0..b.total {
                let taken = u64::from(i < b.executed && l.hits > 0);
                let _ = writeln!(out, "BRDA:{},0,{i},{taken}", l.line);
            }
            brf += b.total;
            brh += b.executed;
        }
    }
    for l in lines {
        let _ = writeln!(out, "DA:{},{}", l.line, l.hits);
    }
    let (lf, lh) = if lines.is_empty() && part == "main" {
        let s = o.statements.map_or((0, 0), |c| (c.total, c.executed));
        if let Some(b) = o.branches {
            brf = b.total;
            brh = b.executed;
        }
        s
    } else {
        (
            lines.len() as u64,
            lines.iter().filter(|l| l.hits > 0).count() as u64,
        )
    };
    if brf > 0 {
        let _ = writeln!(out, "BRF:{brf}");
        let _ = writeln!(out, "BRH:{brh}");
    }
    let _ = writeln!(out, "LF:{lf}");
    let _ = writeln!(out, "LH:{lh}");
    let _ = writeln!(out, "end_of_record");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::report::test_fixtures::{count, line};

    #[test]
    fn records_with_lines_branches_and_totals() {
        let o = ObjectCoverage {
            name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
            statement_rate: Some(50.0),
            branch_rate: Some(50.0),
            procedure_rate: None,
            statements: Some(count(1, 2)),
            branches: Some(count(1, 2)),
            procedures: None,
            lines: vec![
                line("main", 8, 2, Some(count(1, 2))),
                line("main", 9, 0, None),
            ],
        };
        let text = render(std::slice::from_ref(&o), &PathScheme::new(None));
        assert_eq!(
            text,
            "TN:\nSF:src/zcl_x.clas.abap\nBRDA:8,0,0,1\nBRDA:8,0,1,0\nDA:8,2\nDA:9,0\nBRF:2\nBRH:1\nLF:2\nLH:1\nend_of_record\n"
        );
        let bare = ObjectCoverage { lines: vec![], ..o };
        assert_eq!(
            render(&[bare], &PathScheme::new(None)),
            "TN:\nSF:src/zcl_x.clas.abap\nBRF:2\nBRH:1\nLF:2\nLH:1\nend_of_record\n"
        );
    }
}
