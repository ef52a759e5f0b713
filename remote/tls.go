package remote

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/benchwright/benchwright/bench"
)

// Fingerprint names a certificate the way the server prints it and the client
// pins it: "SHA256:" and the hex SHA-256 of the certificate's DER bytes.
func Fingerprint(der []byte) string {
	h := sha256.Sum256(der)
	return "SHA256:" + hex.EncodeToString(h[:])
}

// NormalizeFingerprint accepts what people paste ("SHA256:AB:CD…", upper or lower
// case, with or without colons) and returns the canonical form, or an error that
// says what is wrong.
func NormalizeFingerprint(s string) (string, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 7 && strings.EqualFold(t[:7], "sha256:") {
		t = t[7:]
	}
	t = strings.ToLower(strings.ReplaceAll(t, ":", ""))
	if b, err := hex.DecodeString(t); err != nil || len(b) != sha256.Size {
		return "", fmt.Errorf("fingerprint %q is not SHA256: followed by 64 hex digits", s)
	}
	return "SHA256:" + t, nil
}

// LoadOrCreateCertificate returns the server's certificate from certFile and
// keyFile (PEM), creating a self-signed one there when neither exists: ECDSA P-256,
// valid ten years, for localhost, this machine's name and hosts (names or
// addresses the server is reached by).
func LoadOrCreateCertificate(certFile, keyFile string, hosts []string) (tls.Certificate, error) {
	_, errC := os.Stat(certFile)
	_, errK := os.Stat(keyFile)
	switch {
	case errC == nil && errK == nil:
		c, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return tls.Certificate{}, fmt.Errorf("load the server certificate %s: %w", certFile, err)
		}
		return c, nil
	case errC == nil || errK == nil:
		return tls.Certificate{}, fmt.Errorf("the server certificate needs both %s and %s; one is missing", certFile, keyFile)
	case !errors.Is(errC, os.ErrNotExist):
		return tls.Certificate{}, fmt.Errorf("server certificate: %w", errC)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("make a server key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return tls.Certificate{}, err
	}
	name, _ := os.Hostname()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "Benchwright team server " + name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
	}
	for _, h := range append([]string{"localhost", "127.0.0.1", "::1", name}, hosts...) {
		if h == "" {
			continue
		}
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("make a server certificate: %w", err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := os.MkdirAll(filepath.Dir(certFile), 0o755); err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		return tls.Certificate{}, fmt.Errorf("write the server key: %w", err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return tls.Certificate{}, fmt.Errorf("write the server certificate: %w", err)
	}
	return tls.LoadX509KeyPair(certFile, keyFile)
}

// ErrCertificateChanged is wrapped by the error for a server whose certificate is
// not the one pinned.
var ErrCertificateChanged = errors.New("the server's certificate changed")

// ErrUnknownCertificate is wrapped when a server's certificate is seen for the
// first time and nobody was asked to trust it.
var ErrUnknownCertificate = errors.New("the server's certificate is not trusted yet")

// ErrNotTrusted is wrapped when the person (Options.Trust) declined a server's
// certificate seen for the first time.
var ErrNotTrusted = bench.ErrNotTrusted

// pinnedTLS is a client TLS configuration that trusts exactly the certificate
// with fingerprint pin; with no pin, trust is asked for (trust on first use): the
// certificate is accepted when trust returns nil, and its fingerprint reported
// through seen.
func pinnedTLS(host, pin string, trust func(fingerprint string) error, seen func(string), refused func(error) error) *tls.Config {
	var mu sync.Mutex // a trusted certificate is pinned for the client's later connections
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		// The chain is not checked against authorities: the pin is the trust.
		InsecureSkipVerify: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return fmt.Errorf("%s sent no certificate", host)
			}
			got := Fingerprint(raw[0])
			mu.Lock()
			defer mu.Unlock()
			switch {
			case pin != "" && got == pin:
				seen(got)
				return nil
			case pin != "":
				return refused(fmt.Errorf("%w: %s presented %s, but this workstation trusted %s when it first connected. "+
					"If the server's certificate was replaced on purpose, forget the old one and connect again; "+
					"otherwise someone may be intercepting the connection", ErrCertificateChanged, host, got, pin))
			case trust == nil:
				return refused(fmt.Errorf("%w: %s presented %s; pass its fingerprint (--fingerprint) to trust it", ErrUnknownCertificate, host, got))
			}
			if err := trust(got); err != nil {
				return refused(fmt.Errorf("%w (%s, %s): %w", ErrNotTrusted, host, got, err))
			}
			pin = got
			seen(got)
			return nil
		},
	}
}
