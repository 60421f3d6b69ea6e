use super::format::{FORMAT_NAME, FORMAT_VERSION};
use super::*;
use serde_json::json;

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "adt-ls-native-trace-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("wire.jsonl")
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_session_is_a_header_then_one_line_per_message_with_methods_on_responses() {
    let path = temp_file("format");
    let tracer = Tracer::open(&path).unwrap();
    tracer.lsp(
        Direction::Out,
        br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#,
    );
    tracer.lsp(
        Direction::In,
        br#"{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"ADTLS"}}}"#,
    );
    tracer.lsp(
        Direction::In,
        br#"{"jsonrpc":"2.0","id":0,"method":"workspace/configuration","params":{}}"#,
    );
    tracer.lsp(
        Direction::Out,
        br#"{"jsonrpc":"2.0","id":0,"result":[null]}"#,
    );
    tracer.mcp(
        Direction::In,
        &json!({"jsonrpc":"2.0","id":1,"result":{}}),
        Some(HttpMeta {
            status: Some(200),
            session_id: Some("s-1".into()),
            ..HttpMeta::default()
        }),
    );
    tracer.close();
    tracer.lsp(Direction::Out, br#"{"jsonrpc":"2.0","method":"late"}"#);
    let all = lines(&path);
    assert_eq!(all.len(), 6, "{all:?}");
    assert_eq!(all[0]["type"], "header");
    assert_eq!(all[0]["format"], FORMAT_NAME);
    assert_eq!(all[0]["version"], FORMAT_VERSION);
    let session = all[0]["session"].as_str().unwrap();
    assert_eq!(session.len(), 12);
    assert!(all[1..].iter().all(|l| l["session"] == session));
    assert_eq!(all[1]["ch"], "lsp");
    assert_eq!(all[1]["dir"], "out");
    assert_eq!(all[1]["method"], "initialize");
    assert_eq!(all[2]["dir"], "in");
    assert_eq!(
        all[2]["method"], "initialize",
        "a response names its request"
    );
    assert_eq!(all[2]["msg"]["result"]["serverInfo"]["name"], "ADTLS");
    assert_eq!(all[4]["method"], "workspace/configuration");
    assert_eq!(all[4]["dir"], "out");
    assert_eq!(all[5]["ch"], "mcp");
    assert_eq!(all[5]["http"]["status"], 200);
    assert_eq!(all[5]["http"]["sessionId"], "s-1");
    assert!(all[1]["ms"].as_f64().unwrap() <= all[5]["ms"].as_f64().unwrap());
    assert!(all[1]["ts"].as_str().unwrap().ends_with('Z'));
}

#[cfg(unix)]
#[test]
fn a_new_file_is_owner_only_and_an_existing_one_is_appended_to() {
    use std::os::unix::fs::PermissionsExt;
    let path = temp_file("mode");
    Tracer::open(&path).unwrap().close();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    Tracer::open(&path).unwrap().close();
    let headers = lines(&path)
        .into_iter()
        .filter(|l| l["type"] == "header")
        .count();
    assert_eq!(headers, 2);
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_logged_once_and_stops_tracing() {
    crate::kernel::log::testing::capture_logs();
    // /dev/full itself is refused as a trace file (a device); held open, every write fails.
    let full = Path::new("/dev/full");
    let file = std::fs::OpenOptions::new().append(true).open(full).unwrap();
    let tracer = Tracer::over(super::writer::TraceFile::from_file(full, file)).unwrap();
    assert!(!tracer.is_open(), "the header write already failed");
    tracer.lsp(Direction::Out, br#"{"jsonrpc":"2.0","method":"x"}"#);
    let warned = crate::kernel::log::testing::logged(crate::kernel::log::Level::Warn, "/dev/full");
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].contains("tracing stopped"));
}

#[test]
fn the_environment_variable_applies_only_without_the_option() {
    let host = HostEnv {
        vars: Some(vec![(TRACE_ENV.to_string(), "/tmp/env.jsonl".to_string())]),
        ..HostEnv::default()
    };
    assert_eq!(
        resolve_target(None, &host),
        Some(PathBuf::from("/tmp/env.jsonl"))
    );
    assert_eq!(
        resolve_target(Some(PathBuf::from("/tmp/opt.jsonl")), &host),
        Some(PathBuf::from("/tmp/opt.jsonl"))
    );
    let empty = HostEnv {
        vars: Some(vec![(TRACE_ENV.to_string(), " ".to_string())]),
        ..HostEnv::default()
    };
    assert_eq!(resolve_target(None, &empty), None);
    let in_cwd = HostEnv {
        cwd: Some(PathBuf::from("/work/app")),
        ..HostEnv::default()
    };
    assert_eq!(
        resolve_target(Some(PathBuf::from("logs/wire.jsonl")), &in_cwd),
        Some(PathBuf::from("/work/app/logs/wire.jsonl")),
        "a relative path is the host's cwd's"
    );
}

fn traced(messages: &[(Channel, Direction, Value)]) -> String {
    let path = temp_file(&format!("redact-{}", messages.len()));
    let tracer = Tracer::open(&path).unwrap();
    for (ch, dir, msg) in messages {
        match ch {
            Channel::Lsp => tracer.lsp(*dir, msg.to_string().as_bytes()),
            Channel::Mcp => tracer.mcp(*dir, msg, None),
        }
    }
    tracer.close();
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn credentials_are_masked_by_key_by_position_and_by_value() {
    crate::kernel::redact::register("Registered-Secret-42");
    let text = traced(&[
        (
            Channel::Lsp,
            Direction::Out,
            json!({"jsonrpc":"2.0","id":3,"method":"adtLs/mcp/startMCPServer",
                   "params":{"port":2240,"token":"f00dfeedf00dfeed","fileSystemMode":"VFS"}}),
        ),
        (
            Channel::Lsp,
            Direction::In,
            json!({"jsonrpc":"2.0","id":3,"result":{"port":2240,"token":"f00dfeedf00dfeed"}}),
        ),
        (
            Channel::Lsp,
            Direction::Out,
            json!({"jsonrpc":"2.0","method":"custom/x","params":{
                "Password":"hunter2-pw","sap_password":"x","user":"DEVELOPER",
                "nested":[{"Set-Cookie":"MYSAPSSO2=abcdef"}],
                "note":"Registered-Secret-42 in text",
                "url":"https://u:pw-in-url@h/x?reentrance-ticket=T1C2K3&a=1",
                "header":"Authorization: Basic REVWOnB3"}}),
        ),
        (
            Channel::Lsp,
            Direction::In,
            json!({"jsonrpc":"2.0","id":9,"method":"adtLs/destinations/requestLogonInput",
                   "params":{"id":"A4H","params":[
                       {"field":{"key":"user","sensitive":false}},
                       {"field":{"key":"pin","sensitive":true}}]}}),
        ),
        (
            Channel::Lsp,
            Direction::Out,
            json!({"jsonrpc":"2.0","id":9,"result":{"id":"A4H","fields":[
                {"key":"user","value":"DEVELOPER"},{"key":"pin","value":"PIN-73919"}]}}),
        ),
        (
            Channel::Lsp,
            Direction::In,
            json!({"jsonrpc":"2.0","method":"$/progress","params":{"token":"prog-1","value":{}}}),
        ),
        (
            Channel::Lsp,
            Direction::In,
            json!({"jsonrpc":"2.0","id":4,"result":{"legend":{"tokenTypes":["class"]}}}),
        ),
    ]);
    for secret in [
        "f00dfeedf00dfeed",
        "hunter2-pw",
        "abcdef",
        "Registered-Secret-42",
        "pw-in-url",
        "T1C2K3",
        "REVWOnB3",
        "PIN-73919",
    ] {
        assert!(!text.contains(secret), "{secret} leaked:\n{text}");
    }
    for kept in [
        "DEVELOPER",
        "\"port\":2240",
        "prog-1",
        "tokenTypes",
        "reentrance-ticket=***",
        "Basic ***",
    ] {
        assert!(text.contains(kept), "{kept} lost:\n{text}");
    }
}

#[test]
fn an_object_under_a_credential_name_is_searched_not_replaced() {
    let text = traced(&[(
        Channel::Mcp,
        Direction::In,
        json!({"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t","inputSchema":{
            "properties":{"password":{"type":"string","description":"the password"}}}}],
            "cookies":["SAP_SESSIONID_A4H_001=s3ss10n"]}}),
    )]);
    assert!(
        text.contains(r#""password":{"type":"string","description":"the password"}"#),
        "{text}"
    );
    assert!(text.contains(r#""cookies":"***""#), "{text}");
    assert!(!text.contains("s3ss10n"), "{text}");
}

#[test]
fn the_pairing_memory_is_bounded_and_forgets_instead_of_growing() {
    let mut correlator = correlate::Correlator::default();
    for id in 0..5000 {
        correlator.observe(
            Channel::Lsp,
            Direction::Out,
            &json!({"jsonrpc":"2.0","id":id,"method":"never/answered"}),
        );
    }
    assert!(correlator.open_count() <= 4096);
    let late = correlator.observe(
        Channel::Lsp,
        Direction::In,
        &json!({"jsonrpc":"2.0","id":4999,"result":null}),
    );
    assert_eq!(late.method.as_deref(), Some("never/answered"));
    assert!(late.is_response);
}
