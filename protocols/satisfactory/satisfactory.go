// Package satisfactory queries Satisfactory dedicated servers (1.0 and later) with
// Coffee Stain's Lightweight Query API: one little-endian UDP datagram each way,
// reporting the server state, the build changelist, flags, change counters
// ("sub-states") and the server name. It reports no player counts (those need the
// authenticated HTTPS API). The pre-1.0 "FirstVersion" query of Update 5-8 servers
// (UDP 15777) is spoken when Options.Legacy is set, and recognised in any reply.
//
// With Options.API the querier speaks the HTTPS API as well (TCP, same port 7777,
// POST /api/v1), after the Lightweight Query: PasswordlessLogin for a Client token
// (or a configured API token), then QueryServerState for the players, player limit,
// session, tech tier and game phase. The name and build stay the Lightweight
// Query's (the session is a save's name, not the server's). The server's certificate is self-signed by default and accepted unless
// ca_file is set. Spec: the wiki's "Dedicated servers/HTTPS API" (a copy of
// DedicatedServerAPIDocs.md); see api_query.go.
//
// Each query uses a fresh random cookie; replies carrying another cookie are skipped.
// When only such replies arrive before the deadline the query fails with ErrMismatch
// (not ErrTimeout): the host answers, but not this poll.
//
// Spec: ../shared/protocols/satisfactory.md (layout from Coffee Stain's FGDSQueryTypes.h;
// the errata of the commonly copied DedicatedServerAPIDocs.md are listed in its §5).
package satisfactory

import (
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "satisfactory",
	Description: "Satisfactory dedicated server Lightweight Query API (state, changelist, sub-states, name; no player counts), and with api: true the HTTPS API too (players, limit, session, tech tier)",
	DefaultPort: 7777,
	Transport:   "udp",
	New:         newQuerier,
}

// Options is the module's `satisfactory:` block.
type Options struct {
	// Legacy sends the pre-1.0 query (10-byte poll, no magic) that Update 5-8
	// servers answer on UDP 15777; set the target's port to 15777 with it.
	Legacy bool `yaml:"legacy"`
	// API queries the HTTPS API on the game port (TCP) after the UDP Lightweight
	// Query: it adds player counts, the session and the tech tier.
	API bool `yaml:"api"`
	// Token (or TokenFile, read at config load) is an API token from the server
	// console's server.GenerateAPIToken, used instead of a passwordless login: a
	// server with a client password grants no passwordless token.
	Token     protocols.Secret `yaml:"token"`
	TokenFile string           `yaml:"token_file"`
	// CAFile is a PEM bundle to verify the server's certificate (chain and the
	// target's address) with; without it any certificate is accepted, since the
	// server generates a self-signed one by default.
	CAFile string `yaml:"ca_file"`
}

// newQuerier builds the Querier for a module.
var newQuerier = protocols.WithOptions("satisfactory", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	if !opts.API {
		if opts.Token != "" || opts.TokenFile != "" || opts.CAFile != "" {
			return nil, errors.New("satisfactory options: token, token_file and ca_file are for the HTTPS API: set api: true")
		}
		return poll(s.Retries, opts.Legacy), nil
	}
	if opts.Legacy {
		return nil, errors.New("satisfactory options: legacy and api exclude each other (pre-1.0 servers have no HTTPS API)")
	}
	token, err := protocols.LoadSecret(opts.Token, opts.TokenFile)
	if err != nil {
		return nil, fmt.Errorf("satisfactory token: %w", err)
	}
	if err := checkToken(token.Reveal()); err != nil {
		return nil, fmt.Errorf("satisfactory token: %w", err)
	}
	q := &apiQuerier{token: token, lq: poll(s.Retries, false)}
	if opts.CAFile != "" {
		pem, err := protocols.ReadFile(opts.CAFile, protocols.MaxSecretFile)
		if err != nil {
			return nil, fmt.Errorf("satisfactory ca_file: %w", err)
		}
		q.roots = x509.NewCertPool()
		if !q.roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("satisfactory ca_file %s: no PEM certificate in it", opts.CAFile)
		}
	}
	return q, nil
})
