// Package config holds the modules file: its strict YAML form, the built-in modules,
// validation, and SafeConfig, which swaps a whole validated config on reload.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/common/model"
	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/auto"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

var configIDs atomic.Uint64

// Defaults applied to every module that does not set the field.
const (
	DefaultTimeout         = 5 * time.Second
	DefaultMaxPlayerSeries = 64
	MaxRetries             = 5
	// MaxTimeout caps a module's timeout: a scrape rarely allows more than a
	// minute, and every probe in flight holds resources until its deadline.
	MaxTimeout = 5 * time.Minute
)

// Config is the modules file.
type Config struct {
	// ID is unique per loaded config, so results cached under one config are not
	// served under the next.
	ID uint64 `yaml:"-"`

	Modules      map[string]*Module `yaml:"modules"`
	TargetPolicy TargetPolicy       `yaml:"target_policy,omitempty"`
	Discovery    Discovery          `yaml:"discovery,omitempty"`
	// PolicyKey identifies the target policy: results cached under one policy are
	// not served under another.
	PolicyKey string `yaml:"-"`

	// Warnings are what the file does that is allowed but likely a mistake (a
	// module that replaces a built-in one and drops its ports); logged on load.
	Warnings []string `yaml:"-"`

	// renders caches what the pages render of this config (/config, /modules):
	// once per loaded config, not once per request.
	renders sync.Map // name → []byte
}

// Rendered returns render's output for this config, rendering it on first use.
// Concurrent first uses may each render; one result is kept.
func (c *Config) Rendered(name string, render func() []byte) []byte {
	if b, ok := c.renders.Load(name); ok {
		return b.([]byte)
	}
	b, _ := c.renders.LoadOrStore(name, render())
	return b.([]byte)
}

// Module is one named way of probing: a protocol and its settings.
type Module struct {
	Protocol string         `yaml:"protocol"`
	Timeout  model.Duration `yaml:"timeout,omitempty"`
	// Port is the game port used when the target has none (default: the protocol's).
	Port uint16 `yaml:"port,omitempty"`
	// PortOffsets are added to the game port to reach the query port, tried in
	// order within the deadline (default: the protocol's, e.g. [123] for ASE).
	// Set [0] when targets name the query port.
	PortOffsets []int `yaml:"port_offsets,omitempty,flow"`
	// Description says what the module is for (the game, for catalog modules).
	Description         string `yaml:"description,omitempty"`
	Players             bool   `yaml:"players,omitempty"`
	Rules               bool   `yaml:"rules,omitempty"`
	MaxPlayerSeries     int    `yaml:"max_player_series,omitempty"`
	PreferredIPProtocol string `yaml:"preferred_ip_protocol,omitempty"`
	// CacheTTL serves a probe's result to later scrapes of the same target for this
	// long, so several Prometheus servers do not multiply the load on one game server.
	CacheTTL           model.Duration `yaml:"cache_ttl,omitempty"`
	IPProtocolFallback *bool          `yaml:"ip_protocol_fallback,omitempty"`
	Retries            int            `yaml:"retries,omitempty"`
	// ListedIn names discovery sources the server should be listed in: the
	// probe exports gameserver_listed{source} from their cached lists.
	ListedIn []string `yaml:"listed_in,omitempty,flow"`
	// Targets, when set, are the only targets the module queries (addresses, CIDRs,
	// host name patterns): required for a module that carries a credential.
	Targets []string `yaml:"targets,omitempty"`

	// Options holds the protocol-specific block, keyed by the protocol's name.
	Options map[string]yaml.Node `yaml:",inline"`

	querier  protocols.Querier
	proto    protocols.Protocol
	targets  matcher
	queryKey string
}

// QueryKey identifies what the module's query sends and asks for: its protocol and
// every setting that changes the query or its result (protocol block, players,
// rules, retries, address family, targets), not its name, description or ports.
// Two modules, or one module before and after a reload, with the same key make the
// same query of a given address: the exporter's min-interval and cache hold across
// them (a client POSTing /-/reload, or 63 A2S catalog modules naming one server,
// do not multiply the queries one server gets).
func (m *Module) QueryKey() string { return m.queryKey }

func (m *Module) computeQueryKey() {
	b, _ := yaml.Marshal(struct {
		Options  map[string]yaml.Node
		Players  bool
		Rules    bool
		Retries  int
		IP       string
		Fallback bool
		Targets  []string
	}{m.Options, m.Players, m.Rules, m.Retries, m.PreferredIPProtocol, m.Fallback(), m.Targets})
	h := fnv.New64a()
	h.Write(b)
	m.queryKey = m.Protocol + "#" + strconv.FormatUint(h.Sum64(), 36)
}

// Querier returns the module's compiled querier.
func (m *Module) Querier() protocols.Querier { return m.querier }

// Descriptor returns the descriptor (ports, transport, constructor) of the protocol
// that Protocol names.
func (m *Module) Descriptor() protocols.Protocol { return m.proto }

// DefaultPort is the port a target without one is probed on (before the offset).
func (m *Module) DefaultPort() uint16 {
	if m.Port != 0 {
		return m.Port
	}
	return m.proto.DefaultPort
}

// QueryPortOffsets are the offsets tried, in order, from the target's port.
func (m *Module) QueryPortOffsets() []int {
	if len(m.PortOffsets) > 0 {
		return m.PortOffsets
	}
	return []int{m.proto.PortOffset}
}

// Fallback reports whether the other IP family may be used.
func (m *Module) Fallback() bool { return m.IPProtocolFallback == nil || *m.IPProtocolFallback }

// MaxConfigFile caps the modules file: a thousand modules are a few hundred KiB.
const MaxConfigFile = 4 << 20

// MaxPortOffsets bounds port_offsets: each candidate gets a share of the deadline.
const MaxPortOffsets = 8

// Builtin returns the built-in modules: one per protocol, named after it, and one per
// game of the catalog whose protocol is compiled in.
func Builtin() map[string]*Module {
	out := map[string]*Module{}
	for _, p := range registry.All() {
		out[p.Name] = &Module{Protocol: p.Name, Description: p.Description}
	}
	for _, g := range catalog.Games {
		if _, isProto := out[g.Module]; isProto {
			continue
		}
		if _, ok := registry.Lookup(g.Protocol); !ok {
			continue
		}
		m := &Module{Protocol: g.Protocol, Port: g.Port, PortOffsets: g.Offsets, Description: g.Name, Rules: g.QueryRules()}
		if body := g.Options(); body != "" {
			// The catalog test holds every body to be a YAML mapping; compile then
			// decodes it strictly, as it would a modules file's block.
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(body), &doc); err == nil && len(doc.Content) == 1 {
				m.Options = map[string]yaml.Node{g.Protocol: *doc.Content[0]}
			}
		}
		out[g.Module] = m
	}
	out[auto.Protocol.Name] = &Module{Protocol: auto.Protocol.Name, Description: auto.Protocol.Description}
	return out
}

// Load reads a modules file. An empty path returns the built-in modules.
func Load(path string) (*Config, error) {
	if path == "" {
		return Parse(nil)
	}
	b, err := protocols.ReadFile(path, MaxConfigFile)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, b)
}

// Parse decodes a modules file strictly (unknown keys are errors that name the key),
// merges it over the built-in modules and validates every module.
func Parse(b []byte) (*Config, error) { return ParseFile("modules file", b) }

// ParseFile is Parse with the file's name, which errors start with
// (file:line:col: ...).
func ParseFile(file string, b []byte) (*Config, error) {
	c := &Config{ID: configIDs.Add(1)}
	var p positions
	if len(bytes.TrimSpace(b)) > 0 {
		var root yaml.Node
		if err := yaml.Unmarshal(b, &root); err != nil {
			return nil, syntaxError(file, b, err)
		}
		if err := noAliases(file, &root); err != nil {
			return nil, err
		}
		p = newPositions(&root)
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
			return nil, decodeError(file, &root, p, err)
		}
	}
	// Every error is reported, not the first: a file is fixed in one round.
	var errs []error
	mods := Builtin()
	shadowed := map[string]*Module{}
	for _, name := range c.Names() {
		m := c.Modules[name]
		if err := checkName(name); err != nil {
			errs = append(errs, moduleError(file, p, name, err))
		}
		if m == nil {
			errs = append(errs, moduleError(file, p, name, errors.New("empty module")))
			continue
		}
		if b, ok := mods[name]; ok {
			shadowed[name] = b
		}
		mods[name] = m
	}
	c.Modules = mods
	if err := c.TargetPolicy.compile(); err != nil {
		if q, ok := p.top["target_policy"]; ok {
			err = fmt.Errorf("%s:%d:%d: target_policy: %w", file, q.line, q.col, err)
		}
		errs = append(errs, err)
	}
	for _, name := range c.Names() {
		if err := c.Modules[name].compile(); err != nil {
			errs = append(errs, moduleError(file, p, name, err))
		}
	}
	errs = append(errs, c.compileDiscovery(file, p)...)
	if len(errs) > 0 {
		inFileOrder(file, errs)
		return nil, errors.Join(errs...)
	}
	c.Warnings = shadowWarnings(file, p, shadowed, c.Modules)
	pol, _ := yaml.Marshal(&c.TargetPolicy)
	h := fnv.New64a()
	h.Write(pol)
	c.PolicyKey = strconv.FormatUint(h.Sum64(), 36)
	return c, nil
}

func (m *Module) compile() error {
	p, ok := lookupProtocol(m.Protocol)
	if !ok {
		if m.Protocol == "" {
			return &fieldError{"protocol", "protocol is required"}
		}
		return &fieldError{"protocol", fmt.Sprintf("unknown protocol %q%s (known: %s)", m.Protocol, suggest(m.Protocol, protocolNames()), strings.Join(protocolNames(), ", "))}
	}
	return m.Compile(p)
}

// checkKeys refuses a protocol block that is not the module's protocol's, or an
// unknown key, with the nearest known one.
func (m *Module) checkKeys() error {
	for key := range m.Options {
		if key == m.Protocol {
			continue
		}
		if _, isProto := lookupProtocol(key); isProto {
			return &fieldError{key, fmt.Sprintf("protocol block %q does not match the module's protocol %q", key, m.Protocol)}
		}
		return &fieldError{key, fmt.Sprintf("unknown field %q%s", key, suggest(key, append(moduleKeys[:len(moduleKeys):len(moduleKeys)], m.Protocol)))}
	}
	return nil
}

// applyLimits fills the module's defaults and checks its values' ranges.
func (m *Module) applyLimits() error {
	if m.Timeout == 0 {
		m.Timeout = model.Duration(DefaultTimeout)
	}
	if m.Timeout < 0 || time.Duration(m.Timeout) > MaxTimeout {
		return &fieldError{"timeout", fmt.Sprintf("timeout %s is over the limit of %s (a probe holds a connection and a socket for that long)", m.Timeout, model.Duration(MaxTimeout))}
	}
	if time.Duration(m.CacheTTL) > MaxTimeout*12 {
		return &fieldError{"cache_ttl", fmt.Sprintf("cache_ttl %s is over the limit of %s", m.CacheTTL, model.Duration(MaxTimeout*12))}
	}
	if m.MaxPlayerSeries == 0 {
		m.MaxPlayerSeries = DefaultMaxPlayerSeries
	}
	if m.MaxPlayerSeries < 0 {
		return &fieldError{"max_player_series", "max_player_series must not be negative"}
	}
	switch m.PreferredIPProtocol {
	case "":
		m.PreferredIPProtocol = "ip4"
	case "ip4", "ip6":
	default:
		return &fieldError{"preferred_ip_protocol", fmt.Sprintf("preferred_ip_protocol must be ip4 or ip6, not %q", m.PreferredIPProtocol)}
	}
	if m.CacheTTL < 0 {
		return &fieldError{"cache_ttl", "cache_ttl must not be negative"}
	}
	if m.Retries < 0 || m.Retries > MaxRetries {
		return &fieldError{"retries", fmt.Sprintf("retries must be between 0 and %d", MaxRetries)}
	}
	if len(m.PortOffsets) > MaxPortOffsets {
		return &fieldError{"port_offsets", fmt.Sprintf("port_offsets has %d entries, at most %d", len(m.PortOffsets), MaxPortOffsets)}
	}
	for _, off := range m.PortOffsets {
		if off < -65534 || off > 65534 {
			return &fieldError{"port_offsets", fmt.Sprintf("port_offsets entry %d out of range", off)}
		}
	}
	return nil
}

// Compile validates m, fills its defaults and builds its querier with protocol p.
func (m *Module) Compile(p protocols.Protocol) error {
	m.proto = p
	if err := m.checkKeys(); err != nil {
		return err
	}
	if err := m.applyLimits(); err != nil {
		return err
	}
	q, err := p.New(protocols.Settings{
		Players: m.Players,
		Rules:   m.Rules,
		Retries: m.Retries,
		Options: m.decodeOptions,
	})
	if err != nil {
		return &blockError{m.Protocol, err}
	}
	if err := m.compileTargets(); err != nil {
		return err
	}
	m.querier = q
	m.computeQueryKey()
	return nil
}

// decodeOptions decodes the protocol block into v with unknown keys rejected.
func (m *Module) decodeOptions(v any) error {
	node, ok := m.Options[m.Protocol]
	if !ok {
		return nil
	}
	b, err := yaml.Marshal(&node)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// Names returns the module names, sorted.
func (c *Config) Names() []string {
	out := make([]string, 0, len(c.Modules))
	for n := range c.Modules {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// YAML renders the effective config, credentials redacted; once per loaded config.
func (c *Config) YAML() ([]byte, error) {
	if b, ok := c.renders.Load("yaml"); ok {
		return b.([]byte), nil
	}
	cc := Config{TargetPolicy: c.TargetPolicy, Discovery: redactedDiscovery(c.Discovery), Modules: make(map[string]*Module, len(c.Modules))}
	for n, m := range c.Modules {
		cc.Modules[n] = redacted(m)
	}
	b, err := yaml.Marshal(&cc)
	if err != nil {
		return nil, err
	}
	c.renders.Store("yaml", b)
	return b, nil
}

// ModuleYAML renders one module, credentials redacted.
func ModuleYAML(m *Module) string {
	b, err := yaml.Marshal(redacted(m))
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// lookupProtocol finds a protocol of the registry, or auto, which uses the registry
// and so cannot be in it.
func lookupProtocol(name string) (protocols.Protocol, bool) {
	if name == auto.Protocol.Name {
		return auto.Protocol, true
	}
	return registry.Lookup(name)
}

func protocolNames() []string {
	out := []string{auto.Protocol.Name}
	for _, p := range registry.All() {
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}
