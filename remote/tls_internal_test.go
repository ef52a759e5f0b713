package remote

import (
	"errors"
	"testing"
)

// TestTrustOnFirstUsePinsForTheClient: once a certificate is trusted, a later
// connection of the same client presenting another one is refused, not asked
// about again.
func TestTrustOnFirstUsePinsForTheClient(t *testing.T) {
	asked := 0
	cfg := pinnedTLS("lab:8443", "", func(string) error { asked++; return nil }, func(string) {}, func(err error) error { return err })
	if err := cfg.VerifyPeerCertificate([][]byte{[]byte("first certificate")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := cfg.VerifyPeerCertificate([][]byte{[]byte("first certificate")}, nil); err != nil {
		t.Errorf("the trusted certificate again: %v", err)
	}
	if err := cfg.VerifyPeerCertificate([][]byte{[]byte("another certificate")}, nil); !errors.Is(err, ErrCertificateChanged) {
		t.Errorf("another certificate on the same client: %v, want ErrCertificateChanged", err)
	}
	if asked != 1 {
		t.Errorf("asked %d times, want once", asked)
	}
}
