"""Certificates made for one run: a CA and leaf certificates for 127.0.0.1 / localhost (cryptography)."""

import datetime
import ipaddress
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


class CertificateAuthority:
    """A throwaway CA (P-256, one day) that signs server certificates for loopback names."""

    def __init__(self, folder, common_name="partgate proof CA"):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.timezone.utc)
        self.certificate = (
            x509.CertificateBuilder()
            .subject_name(_name(common_name))
            .issuer_name(_name(common_name))
            .public_key(self.key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True, content_commitment=False, key_encipherment=False,
                    data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                    encipher_only=False, decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(self.key.public_key()), critical=False)
            .sign(self.key, hashes.SHA256())
        )
        self.ca_path = os.path.join(folder, "ca.pem")
        with open(self.ca_path, "wb") as out:
            out.write(self.certificate.public_bytes(serialization.Encoding.PEM))

    def issue(self, label, dns_names=("localhost",), addresses=("127.0.0.1",)):
        """Writes `label.crt` and `label.key` (a server certificate); returns their paths."""
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.timezone.utc)
        names = [x509.DNSName(name) for name in dns_names]
        names += [x509.IPAddress(ipaddress.ip_address(address)) for address in addresses]
        certificate = (
            x509.CertificateBuilder()
            .subject_name(_name(label))
            .issuer_name(self.certificate.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()), critical=False
            )
            .sign(self.key, hashes.SHA256())
        )
        certificate_path = os.path.join(self.folder, label + ".crt")
        key_path = os.path.join(self.folder, label + ".key")
        with open(certificate_path, "wb") as out:
            out.write(certificate.public_bytes(serialization.Encoding.PEM))
        with open(key_path, "wb") as out:
            out.write(
                key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                )
            )
        return certificate_path, key_path
