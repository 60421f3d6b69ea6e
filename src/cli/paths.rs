//! From ADT to a repository file: the file path of an object's source part, named as abapGit
//! names files (`src/zcl_test.clas.abap`, `src/zcl_test.clas.testclasses.abap`,
//! `src/#abc#cl_x.clas.abap` for the namespace `/ABC/`), so code-scanning and test reports
//! annotate a repository that holds the sources; and the object, part and position in an
//! ADT URI (`/sap/bc/adt/oo/classes/zcl_x/includes/testclasses#start=12,4`: a 1-based line
//! and a 0-based column). The prefix (`src/`) is `--path-prefix`.

/// The default `--path-prefix`.
pub(crate) const DEFAULT_PREFIX: &str = "src/";

/// ADT path prefixes and the type each names.
const ADT_PATHS: &[(&str, &str)] = &[
    ("/sap/bc/adt/oo/classes/", "CLAS/OC"),
    ("/sap/bc/adt/oo/interfaces/", "INTF/OI"),
    ("/sap/bc/adt/programs/programs/", "PROG/P"),
    ("/sap/bc/adt/programs/includes/", "PROG/I"),
    ("/sap/bc/adt/functions/groups/", "FUGR/F"),
    ("/sap/bc/adt/ddic/ddl/sources/", "DDLS/DF"),
    ("/sap/bc/adt/ddic/tables/", "TABL/DT"),
    ("/sap/bc/adt/bo/behaviordefinitions/", "BDEF/BDO"),
    ("/sap/bc/adt/acm/dcl/sources/", "DCLS/DL"),
    ("/sap/bc/adt/ddic/srvd/sources/", "SRVD/SRV"),
    ("/sap/bc/adt/businessservices/bindings/", "SRVB/SVB"),
];

/// What an ADT URI names: object, source part and position (each when present).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AdtPosition {
    pub name: Option<String>,
    pub object_type: Option<String>,
    pub part: Option<String>,
    /// 1-based.
    pub line: Option<u32>,
    /// 0-based, as ADT counts.
    pub column: Option<u32>,
}

/// Read an ADT URI: `<object path>[/source/main | /includes/<part>][#start=<line>[,<col>]]`.
pub(crate) fn parse_adt_uri(uri: &str) -> AdtPosition {
    let (path, fragment) = uri.split_once('#').unwrap_or((uri, ""));
    let mut out = AdtPosition::default();
    if let Some((prefix, object_type)) = ADT_PATHS.iter().find(|(p, _)| path.starts_with(p)) {
        let rest = &path[prefix.len()..];
        let mut segments = rest.split('/');
        out.name = segments
            .next()
            .filter(|s| !s.is_empty())
            .map(|s| decode(s).to_ascii_uppercase());
        out.object_type = Some((*object_type).to_string());
        out.part = match (segments.next(), segments.next()) {
            (Some("source"), _) => Some("main".into()),
            (Some("includes"), Some(part)) => Some(part.to_string()),
            _ => None,
        };
    }
    let start = fragment
        .split(['&', ';'])
        .find_map(|p| p.strip_prefix("start="));
    if let Some(start) = start {
        let mut numbers = start.split(',').map(|n| n.trim().parse::<u32>().ok());
        out.line = numbers.next().flatten().filter(|l| *l > 0);
        out.column = numbers.next().flatten();
    }
    out
}

/// Percent-decoding of one path segment (`%2f` and friends); bad escapes stay as they are.
fn decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' {
            if let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            ) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How report paths are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathScheme {
    prefix: String,
}

impl PathScheme {
    /// `--path-prefix` (default `src/`); an empty prefix means paths without a folder.
    pub(crate) fn new(prefix: Option<&str>) -> PathScheme {
        let raw = prefix.unwrap_or(DEFAULT_PREFIX).replace('\\', "/");
        let prefix = if raw.is_empty() || raw.ends_with('/') {
            raw
        } else {
            format!("{raw}/")
        };
        PathScheme { prefix }
    }

    /// The file of `part` (`main` when `None`) of the object `name` of `object_type`.
    pub(crate) fn file(&self, name: &str, object_type: &str, part: Option<&str>) -> String {
        let base = name.to_ascii_lowercase().replace('/', "#");
        let main = object_type
            .split('/')
            .next()
            .unwrap_or(object_type)
            .to_ascii_lowercase();
        let suffix = match (main.as_str(), part.unwrap_or("main")) {
            ("clas", "definitions") => "clas.locals_def.abap".to_string(),
            ("clas", "implementations") => "clas.locals_imp.abap".to_string(),
            (_, "main") => match main.as_str() {
                "ddls" => "ddls.asddls".to_string(),
                "dcls" => "dcls.asdcls".to_string(),
                "bdef" => "bdef.asbdef".to_string(),
                "srvd" => "srvd.srvdsrv".to_string(),
                other => format!("{other}.abap"),
            },
            (other, part) => format!("{other}.{}.abap", part.to_ascii_lowercase()),
        };
        format!("{}{base}.{suffix}", self.prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adt_uris_name_object_part_and_position() {
        let p = parse_adt_uri("/sap/bc/adt/oo/classes/zcl_x/includes/testclasses#start=12,4");
        assert_eq!(p.name.as_deref(), Some("ZCL_X"));
        assert_eq!(p.object_type.as_deref(), Some("CLAS/OC"));
        assert_eq!(p.part.as_deref(), Some("testclasses"));
        assert_eq!((p.line, p.column), (Some(12), Some(4)));
        let p = parse_adt_uri("/sap/bc/adt/oo/classes/%2fabc%2fcl_y/source/main#type=X;start=3");
        assert_eq!(p.name.as_deref(), Some("/ABC/CL_Y"));
        assert_eq!(
            (p.part.as_deref(), p.line, p.column),
            (Some("main"), Some(3), None)
        );
        let p = parse_adt_uri("/sap/bc/adt/ddic/ddl/sources/zi_z");
        assert_eq!(
            (p.object_type.as_deref(), p.part, p.line),
            (Some("DDLS/DF"), None, None)
        );
        assert_eq!(parse_adt_uri("abap:/repotree-v1/x#start=0,1").line, None);
        assert_eq!(parse_adt_uri("%").name, None);
        assert_eq!(decode("a%2Fb%zz%"), "a/b%zz%");
    }

    #[test]
    fn files_are_named_as_abapgit_names_them() {
        let s = PathScheme::new(None);
        for (name, object_type, part, file) in [
            ("ZCL_TEST", "CLAS/OC", None, "src/zcl_test.clas.abap"),
            (
                "ZCL_TEST",
                "CLAS/OC",
                Some("testclasses"),
                "src/zcl_test.clas.testclasses.abap",
            ),
            (
                "ZCL_TEST",
                "CLAS/OC",
                Some("definitions"),
                "src/zcl_test.clas.locals_def.abap",
            ),
            (
                "ZCL_TEST",
                "CLAS/OC",
                Some("implementations"),
                "src/zcl_test.clas.locals_imp.abap",
            ),
            (
                "/ABC/CL_X",
                "CLAS/OC",
                Some("main"),
                "src/#abc#cl_x.clas.abap",
            ),
            ("ZI_X", "DDLS/DF", None, "src/zi_x.ddls.asddls"),
            ("ZIF_X", "INTF/OI", None, "src/zif_x.intf.abap"),
        ] {
            assert_eq!(s.file(name, object_type, part), file, "{name} {part:?}");
        }
        assert_eq!(
            PathScheme::new(Some("abap/src")).file("P", "PROG/P", None),
            "abap/src/p.prog.abap"
        );
        assert_eq!(
            PathScheme::new(Some("")).file("P", "PROG/P", None),
            "p.prog.abap"
        );
    }
}
