package protocols

import (
	"crypto/x509"
	"fmt"
)

// RootCAs is the system's certificate pool plus the PEM certificates in file
// ("" for none), for protocols that send a credential to a fixed web API. It is
// never nil: wire.DoHTTP skips verification for a nil pool, which is right for
// game servers' self-signed certificates but not for an API a secret goes to. A
// system without roots gets an empty pool, and so a TLS error that says so.
func RootCAs(file string) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if file == "" {
		return pool, nil
	}
	pem, err := ReadFile(file, MaxSecretFile)
	if err != nil {
		return nil, err
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no PEM certificate", file)
	}
	return pool, nil
}
