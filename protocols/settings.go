package protocols

import "context"

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
	New       func(Settings) (Querier, error)
	// LookupSRV, when set, finds the server behind a host name given without a
	// port (Minecraft's _minecraft._tcp records), the way the game's client does.
	LookupSRV func(ctx context.Context, host string) (target string, port uint16, ok bool)
}

type targetHostKey struct{}

// WithTargetHost records the host name the target was given as (before resolution),
// for protocols that send it to the server (virtual hosts on proxies).
func WithTargetHost(ctx context.Context, host string) context.Context {
	return context.WithValue(ctx, targetHostKey{}, host)
}

// TargetHost returns the host name recorded by WithTargetHost, or "".
func TargetHost(ctx context.Context) string {
	h, _ := ctx.Value(targetHostKey{}).(string)
	return h
}
