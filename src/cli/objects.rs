//! Which objects a command works on: `NAME:TYPE` arguments, or `NAME` with `--type`. A name
//! without a type is looked up (`repository.search`, exact name): one match is used, several
//! fail the run listing them, none is "not found". Types are ADT codes (`CLAS/OC`); the main
//! types may be given alone (`CLAS`, `clas`) and mean their usual code.

use super::args::Objects;
use super::exit::Failure;
use crate::client::Client;
use serde_json::{json, Value};

/// One object: its name and ADT type code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Obj {
    pub name: String,
    pub object_type: String,
}

impl Obj {
    /// `NAME:TYPE`, as objects are written on the command line.
    pub(crate) fn label(&self) -> String {
        format!("{}:{}", self.name, self.object_type)
    }

    /// `{name, objectType}`, the engine's `ObjectRef`.
    pub(crate) fn object_ref(&self) -> serde_json::Map<String, Value> {
        let mut map = serde_json::Map::new();
        map.insert("name".into(), json!(self.name));
        map.insert("objectType".into(), json!(self.object_type));
        map
    }
}

/// An argument before lookup: the type is known or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub name: String,
    pub object_type: Option<String>,
}

/// The main types that may be given without their subtype.
const MAIN_TYPES: &[(&str, &str)] = &[
    ("CLAS", "CLAS/OC"),
    ("INTF", "INTF/OI"),
    ("PROG", "PROG/P"),
    ("FUGR", "FUGR/F"),
    ("TABL", "TABL/DT"),
    ("DDLS", "DDLS/DF"),
    ("DCLS", "DCLS/DL"),
    ("BDEF", "BDEF/BDO"),
    ("SRVD", "SRVD/SRV"),
    ("SRVB", "SRVB/SVB"),
    ("DTEL", "DTEL/DE"),
    ("DOMA", "DOMA/DD"),
    ("STRU", "TABL/DS"),
];

/// An ADT type code from what was typed: `CLAS/OC` as it is (upper-cased), `CLAS` as its
/// usual code.
pub(crate) fn type_code(raw: &str) -> Result<String, Failure> {
    let upper = raw.trim().to_ascii_uppercase();
    let valid = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric());
    if let Some((main, sub)) = upper.split_once('/') {
        if valid(main) && valid(sub) {
            return Ok(upper);
        }
    } else if let Some((_, code)) = MAIN_TYPES.iter().find(|(m, _)| *m == upper) {
        return Ok((*code).to_string());
    }
    Err(Failure::usage(format!(
        "'{raw}' is not an ADT object type: use a code such as CLAS/OC, INTF/OI, PROG/P or DDLS/DF"
    )))
}

/// The objects of the command line, types read, names checked.
pub(crate) fn wanted(objects: &Objects) -> Result<Vec<Wanted>, Failure> {
    let default_type = objects.object_type.as_deref().map(type_code).transpose()?;
    objects
        .names
        .iter()
        .map(|arg| {
            let (name, object_type) = match arg.rsplit_once(':') {
                Some((name, t)) => (name, Some(type_code(t)?)),
                None => (arg.as_str(), default_type.clone()),
            };
            let name = name.trim().to_ascii_uppercase();
            if name.is_empty() || name.len() > 120 || name.chars().any(char::is_whitespace) {
                return Err(Failure::usage(format!("'{arg}' is not an object name")));
            }
            Ok(Wanted { name, object_type })
        })
        .collect()
}

/// Turn every wanted object into an object, looking up the names without a type.
pub(crate) async fn resolve(client: &Client, wanted: Vec<Wanted>) -> Result<Vec<Obj>, Failure> {
    let mut out = Vec::with_capacity(wanted.len());
    for w in wanted {
        match w.object_type {
            Some(object_type) => out.push(Obj {
                name: w.name,
                object_type,
            }),
            None => out.push(look_up(client, &w.name).await?),
        }
    }
    Ok(out)
}

async fn look_up(client: &Client, name: &str) -> Result<Obj, Failure> {
    let args = vec![Some(json!(name)), Some(json!({ "maxResults": 100 }))];
    let found = client
        .call("repository.search", args)
        .await
        .map_err(Failure::from_call)?
        .unwrap_or(Value::Null);
    pick(name, &found)
}

/// The one exact match of `name` in a search result, or why there is none.
pub(crate) fn pick(name: &str, found: &Value) -> Result<Obj, Failure> {
    let hits: Vec<Obj> = found
        .get("references")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|r| {
            r.get("name")
                .and_then(Value::as_str)
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
        .filter_map(|r| {
            Some(Obj {
                name: r.get("name")?.as_str()?.to_ascii_uppercase(),
                object_type: r.get("type")?.as_str()?.to_string(),
            })
        })
        .collect();
    match hits.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Failure::usage(format!(
            "no object is named {name}: check the name, or give its type as {name}:TYPE"
        ))),
        many => Err(Failure::usage(format!(
            "{name} names {} objects; pick one with NAME:TYPE or --type: {}",
            many.len(),
            many.iter().map(Obj::label).collect::<Vec<_>>().join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objects(names: &[&str], t: Option<&str>) -> Objects {
        Objects {
            names: names.iter().map(|s| s.to_string()).collect(),
            object_type: t.map(str::to_string),
        }
    }

    #[test]
    fn names_and_types_from_the_command_line() {
        let w = wanted(&objects(
            &["zcl_a:clas/oc", "ZIF_B", "/ABC/CL_C:CLAS"],
            Some("intf"),
        ))
        .unwrap();
        assert_eq!(
            w[0],
            Wanted {
                name: "ZCL_A".into(),
                object_type: Some("CLAS/OC".into())
            }
        );
        assert_eq!(w[1].object_type.as_deref(), Some("INTF/OI"));
        assert_eq!(
            w[2],
            Wanted {
                name: "/ABC/CL_C".into(),
                object_type: Some("CLAS/OC".into())
            }
        );
        assert_eq!(wanted(&objects(&["X"], None)).unwrap()[0].object_type, None);
        assert!(wanted(&objects(&["X:NOPE"], None))
            .unwrap_err()
            .message
            .contains("not an ADT object type"));
        assert!(wanted(&objects(&["X:CL AS/OC"], None)).is_err());
        assert!(wanted(&objects(&[":CLAS"], None)).is_err());
    }

    #[test]
    fn a_name_alone_needs_exactly_one_match() {
        let found = json!({"references": [
            {"name": "ZI_X", "type": "DDLS/DF"},
            {"name": "ZI_X", "type": "BDEF/BDO"},
            {"name": "ZI_X_EXTRA", "type": "DDLS/DF"},
            {"name": "ZCL_Y", "type": "CLAS/OC"}
        ]});
        assert_eq!(pick("zcl_y", &found).unwrap().label(), "ZCL_Y:CLAS/OC");
        let many = pick("ZI_X", &found).unwrap_err();
        assert!(
            many.message.contains("ZI_X:DDLS/DF, ZI_X:BDEF/BDO"),
            "{}",
            many.message
        );
        assert!(pick("ZNONE", &found)
            .unwrap_err()
            .message
            .contains("no object is named ZNONE"));
        assert!(pick("ZNONE", &Value::Null).is_err());
    }
}
