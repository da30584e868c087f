package protocols

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Settings is what a protocol's constructor gets from its validated module.
type Settings struct {
	Players bool // also query the player list
	Rules   bool // also query rules / extended key-values
	Retries int  // re-sends of an unanswered UDP request (wire.UDPConn.Retries)
	// Options decodes the module's protocol-specific block into v (a pointer to the
	// protocol's own options struct), rejecting unknown keys. A module without such
	// a block leaves v untouched.
	Options func(v any) error
}

// Protocol describes one query protocol for the registry.
type Protocol struct {
	Name        string
	Description string
	// DefaultPort is the game port assumed when a target has none.
	DefaultPort uint16
	// PortOffset is added to the game port to find the query port (ASE: 123).
	PortOffset int
	// Transport is "udp" or "tcp", for documentation.
	Transport string
	// OffTarget says the query goes to a fixed service (EOS's web API), not to the
	// target: module auto never guesses it, and tests that fake the target skip it.
	OffTarget bool
	New       func(Settings) (Querier, error)
	// LookupSRV, when set, finds the server behind a host name given without a
	// port (Minecraft's _minecraft._tcp records), the way the game's client does.
	LookupSRV func(ctx context.Context, host string) (target string, port uint16, ok bool)
}

// Secret is a password or token a module gives a protocol. It prints as <secret>
// (fmt, logs, YAML), so debug output, /config and logs never show it; Reveal is for
// the one place that sends it.
type Secret string

func (Secret) String() string            { return "<secret>" }
func (Secret) GoString() string          { return "<secret>" }
func (Secret) MarshalYAML() (any, error) { return "<secret>", nil }
func (s Secret) Reveal() string          { return string(s) }

// BasicAuth is the Authorization header value of HTTP basic authentication
// (RFC 7617) with user and pw: a secret too.
func BasicAuth(user string, pw Secret) Secret {
	return Secret("Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pw.Reveal())))
}

// LoadSecret returns the inline secret, or the content of file with one trailing
// newline trimmed (the usual form of a Kubernetes or systemd credential). Setting
// both is an error. It is called when the module is built, so a reload re-reads it.
func LoadSecret(inline Secret, file string) (Secret, error) {
	if file == "" {
		return inline, nil
	}
	if inline != "" {
		return "", errors.New("set the secret or its _file, not both")
	}
	b, err := ReadFile(file, MaxSecretFile)
	if err != nil {
		return "", err
	}
	s := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if len(s) > 4096 {
		return "", fmt.Errorf("%s: secret longer than 4096 bytes", file)
	}
	return Secret(s), nil
}

// QuerySecret loads a module's secret (LoadSecret; what names it in errors, as
// "terraria token") and, when there is one, adds it to req's query as key, masked
// in the trace and kept out of errors (wire.HTTPRequest.AddSecretQuery).
func QuerySecret(req *wire.HTTPRequest, what, key string, inline Secret, file string) (Secret, error) {
	s, err := LoadSecret(inline, file)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if s != "" {
		req.AddSecretQuery(url.Values{key: {s.Reveal()}})
	}
	return s, nil
}
