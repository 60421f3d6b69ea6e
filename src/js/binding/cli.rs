//! `runCli(argv)` for the package's one-line bin: captures the JS host state and the
//! runtime's name, version, platform and arch, and forwards to [`crate::cli`], which prints
//! and resolves the exit status.

use super::driver::rejected;
use crate::doctor::RuntimeInfo;
use crate::js::runtime::checked;
use crate::js::runtime::errors::coded;
use crate::js::runtime::settle::Settling;
use crate::kernel::arg_error;
use napi::bindgen_prelude::*;

/// Run the `adt-ls-native` command line (`search`, `read`, `write`, `activate`, `unit`,
/// `coverage`, `atc`, `transport`, `tools`, `call`, `destinations`, `doctor`; docs/cli.md):
/// prints the report to stdout (or `--output`) and progress and messages to stderr, and
/// resolves the exit status (0 success, 1 findings or failed tests, 2 usage error, 3
/// connection, logon or adt-ls failure, 130 interrupted).
#[napi(ts_args_type = "argv: string[]", ts_return_type = "Promise<number>")]
pub fn run_cli(env: Env, argv: Unknown) -> Result<Settling<i32>> {
    let argv = match checked::opt_strings(&env, Some(argv), "argv") {
        Ok(Some(argv)) => argv,
        Ok(None) => {
            let received = checked::received(&env, Some(&argv));
            let e = arg_error::type_error("argv", "an array of strings", &received);
            return rejected(&env, e);
        }
        Err(e) => return rejected(&env, e),
    };
    let host = crate::js::runtime::host::capture(&env);
    let runtime = runtime_info(&env);
    coded(
        &env,
        async move { Ok(crate::cli::run(argv, host, runtime).await) },
        |_, code| Ok(code),
    )
}

/// `process.versions.bun` (else `.node`), `process.platform`, `process.arch`.
fn runtime_info(env: &Env) -> RuntimeInfo {
    let mut info = RuntimeInfo {
        name: "unknown".into(),
        ..RuntimeInfo::default()
    };
    let Ok(process) = crate::js::runtime::host::process(env) else {
        return info;
    };
    if let Ok(versions) = process.get_named_property::<Object>("versions") {
        for name in ["bun", "node"] {
            if let Ok(Some(version)) = versions.get::<String>(name) {
                info.name = name.into();
                info.version = version;
                break;
            }
        }
    }
    info.platform = process
        .get::<String>("platform")
        .ok()
        .flatten()
        .unwrap_or_default();
    info.arch = process
        .get::<String>("arch")
        .ok()
        .flatten()
        .unwrap_or_default();
    info
}
