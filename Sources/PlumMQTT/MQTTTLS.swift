/// TLS to the broker: libmosquitto's `mosquitto_tls_set`, with OpenSSL underneath.
package struct MQTTTLS: Hashable, Sendable {
    /// PEM file of the certificate authorities that signed the broker's certificate.
    package var caFile: String?
    /// A directory of CA certificates (`c_rehash` layout), such as /etc/ssl/certs.
    package var caDirectory: String?
    /// This client's PEM certificate, for brokers that authenticate clients by certificate.
    package var certificateFile: String?
    /// The private key of `certificateFile`, unencrypted PEM.
    package var keyFile: String?

    package init(
        caFile: String? = nil, caDirectory: String? = nil, certificateFile: String? = nil, keyFile: String? = nil
    ) {
        self.caFile = caFile
        self.caDirectory = caDirectory
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
