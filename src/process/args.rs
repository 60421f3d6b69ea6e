//! The adt-ls command line (docs/wire.md#spawn): caller-supplied extra arguments first, then the JCo
//! trace path, the Eclipse workspace (`-data`) and the pipe adt-ls connects to.

/// `[...extra_args, "-Djco.trace_path", data_dir, "-data", data_dir, "--pipe=<pipe_name>"]`.
pub(crate) fn compose_spawn_args(
    data_dir: &str,
    pipe_name: &str,
    extra_args: &[String],
) -> Vec<String> {
    let mut args = Vec::with_capacity(extra_args.len() + 5);
    args.extend(extra_args.iter().cloned());
    args.extend([
        "-Djco.trace_path".to_string(),
        data_dir.to_string(),
        "-data".to_string(),
        data_dir.to_string(),
        format!("--pipe={pipe_name}"),
    ]);
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    // driver-args.test.ts: the default argv is the five elements.
    #[test]
    fn default_argv_has_five_elements() {
        assert_eq!(
            compose_spawn_args("/tmp/adtls-data", "/tmp/adtls.sock", &[]),
            [
                "-Djco.trace_path",
                "/tmp/adtls-data",
                "-data",
                "/tmp/adtls-data",
                "--pipe=/tmp/adtls.sock",
            ]
        );
    }

    // driver-args.test.ts: extras come first; a Windows pipe name is kept verbatim.
    #[test]
    fn extra_args_are_prepended() {
        let extra = vec!["-Xmx2g".to_string(), "-Dfoo=bar baz".to_string()];
        assert_eq!(
            compose_spawn_args(r"C:\data", r"\\.\pipe\adtls-123", &extra),
            [
                "-Xmx2g",
                "-Dfoo=bar baz",
                "-Djco.trace_path",
                r"C:\data",
                "-data",
                r"C:\data",
                r"--pipe=\\.\pipe\adtls-123",
            ]
        );
    }

    // driver-args.test.ts: empty extraArgs means none.
    #[test]
    fn empty_extra_args_are_none() {
        assert_eq!(
            compose_spawn_args("d", "p", &[]),
            compose_spawn_args("d", "p", &Vec::new())
        );
        assert_eq!(compose_spawn_args("d", "p", &[]).len(), 5);
    }
}
