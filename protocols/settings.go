package protocols

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
}
