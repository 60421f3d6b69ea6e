//! Integration tests of the TLS module (real sockets, real keytool and java where present).

mod proxy_auth_tests;
mod proxy_tests;
mod support;
mod truststore_kdf_tests;
mod truststore_tests;
