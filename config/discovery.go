package config

// The modules file's `discovery:` section: server lists (a master server or a
// public list, fetched by package protocols/master) that package discovery
// turns into Prometheus targets. Sources are fixed here by the operator: no
// request names a URL or a master address, so the exporter is no proxy.

import (
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/common/model"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
)

// Discovery is the `discovery:` section: sources by name.
type Discovery map[string]*DiscoverySource

// DiscoverySource is one list and what to make of it.
type DiscoverySource struct {
	// Preset names a built-in list (master.Presets: beammp, minetest, ...):
	// it gives the type, the URL, the field map and the refresh interval;
	// url, refresh, timeout, max_targets, filters and module may still be set.
	Preset string `yaml:"preset,omitempty"`
	Type   string `yaml:"type,omitempty"`
	// Address is a UDP master's host:port, URL an HTTP list's; the default is
	// the type's public master or list.
	Address string `yaml:"address,omitempty"`
	URL     string `yaml:"url,omitempty"`
	// Path is a file of targets the operator maintains (type file): one
	// host:port per line, # comments; re-read at every refresh.
	Path string `yaml:"path,omitempty"`
	// Query is the type's request or filter (Steam `\appid\440`, Quake 3
	// `getservers 68 empty full`).
	Query  string `yaml:"query,omitempty"`
	Region string `yaml:"region,omitempty"`
	// KeyFile holds a Steam Web API key (type steam then lists servers with
	// the Web API's GetServerList, query: its filter, instead of Valve's
	// master) or a Pterodactyl panel's application API key (type pterodactyl,
	// required; sent to the panel's url only, as a bearer token).
	KeyFile string `yaml:"key_file,omitempty"`
	// Username and TokenFile sign in to a list that lists servers to a
	// signed-in player only (preset factorio: a factorio.com account's name
	// and token). The token goes with every refresh to the source's URL (the
	// preset's or url:, fixed here, no redirect followed) and to nothing else:
	// never to a probed server, so the list-lookup module reading the source
	// needs no targets: list (config/targets.go), unlike a module that sends
	// its credential to the servers it probes.
	Username  string `yaml:"username,omitempty"`
	TokenFile string `yaml:"token_file,omitempty"`
	// Headers are request headers of an HTTP list (http_json, ddnet,
	// geneshift, their presets): a key the list wants goes here, or in a file
	// header_files names, never into the URL. /config shows no value.
	Headers     map[string]protocols.Secret `yaml:"headers,omitempty"`
	HeaderFiles map[string]string           `yaml:"header_files,omitempty"`
	// Module is the module Prometheus is told to probe the targets with
	// (__param_module).
	Module  string         `yaml:"module,omitempty"`
	Refresh model.Duration `yaml:"refresh,omitempty"`
	// Timeout bounds one refresh (default: the smaller of refresh and 30s).
	Timeout    model.Duration   `yaml:"timeout,omitempty"`
	MaxTargets int              `yaml:"max_targets,omitempty"`
	Filters    DiscoveryFilters `yaml:"filters,omitempty"`
	// Fields maps an http_json list.
	Fields *master.Fields `yaml:"fields,omitempty"`

	lister  master.Lister
	nameRE  *regexp.Regexp
	compare string // what a reload compares to keep a running source
}

// DiscoveryFilters cut a list before Prometheus sees it; gameserver_listed still sees
// the whole list.
type DiscoveryFilters struct {
	// Name is a regular expression (RE2) the server's name must match (anywhere:
	// anchor it with ^ and $).
	Name string `yaml:"name,omitempty"`
	// Game and Map must equal the server's game (game dir, mod, game type) and
	// map, ignoring case.
	Game string `yaml:"game,omitempty"`
	Map  string `yaml:"map,omitempty"`
	// NotEmpty drops servers the list says have no players (HTTP lists: UDP
	// masters know no counts; their query says it, see README).
	NotEmpty bool `yaml:"not_empty,omitempty"`
}

// Limits and defaults.
const (
	DefaultRefresh        = 2 * time.Minute
	MinRefresh            = 10 * time.Second
	MaxRefresh            = 24 * time.Hour
	DefaultRefreshTimeout = 30 * time.Second
)

var sourceName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`)

// Compile validates every source, fills its defaults and builds its lister,
// and returns the first error. moduleExists says whether a module of the
// modules file has a name.
func (c Discovery) Compile(moduleExists func(string) bool) error {
	for _, name := range c.Names() {
		if err := c.compileSource(name, moduleExists); err != nil {
			return fmt.Errorf("discovery: source %q: %w", name, err)
		}
	}
	return nil
}

// compileSource validates and compiles one source.
func (c Discovery) compileSource(name string, moduleExists func(string) bool) error {
	s := c[name]
	if s == nil {
		return errors.New("empty source")
	}
	if !sourceName.MatchString(name) {
		return errors.New("source name: letters, digits, _ and -, at most 64")
	}
	return s.compile(moduleExists)
}

// compileTimes fills and checks the refresh interval and the fetch timeout.
func (s *DiscoverySource) compileTimes() error {
	p, _ := master.LookupPreset(s.Preset)
	if s.Refresh == 0 {
		s.Refresh = model.Duration(DefaultRefresh)
		if p.Refresh > 0 {
			s.Refresh = model.Duration(p.Refresh)
		}
	}
	if s.Timeout == 0 && p.Timeout > 0 && p.Timeout <= time.Duration(s.Refresh) {
		s.Timeout = model.Duration(p.Timeout)
	}
	if r := time.Duration(s.Refresh); r < MinRefresh || r > MaxRefresh {
		return &fieldError{"refresh", fmt.Sprintf("refresh %s out of range %s..%s", s.Refresh, model.Duration(MinRefresh), model.Duration(MaxRefresh))}
	}
	if s.Timeout == 0 {
		s.Timeout = model.Duration(min(DefaultRefreshTimeout, time.Duration(s.Refresh)))
	}
	if s.Timeout < 0 || s.Timeout > s.Refresh {
		return &fieldError{"timeout", fmt.Sprintf("timeout %s must be positive and at most refresh %s", s.Timeout, s.Refresh)}
	}
	return nil
}

// compilePreset checks a source's preset and takes its type.
func (s *DiscoverySource) compilePreset() error {
	if s.Preset == "" {
		return nil
	}
	p, ok := master.LookupPreset(s.Preset)
	if !ok {
		return fmt.Errorf("unknown preset %q (known: %s)", s.Preset, strings.Join(master.PresetNames(), ", "))
	}
	if s.Type != "" && s.Type != p.Type {
		return fmt.Errorf("preset %s is a %s list: leave type unset", p.Name, p.Type)
	}
	if s.Fields != nil {
		return fmt.Errorf("preset %s maps its own fields: leave fields unset", p.Name)
	}
	s.Type = p.Type
	return nil
}

// compileFilters compiles the name filter and refuses a filter on a field the
// source's list never fills (master.Carries): it would drop every server, or
// (not_empty) none.
func (s *DiscoverySource) compileFilters() error {
	if s.Filters.Name != "" {
		re, err := regexp.Compile(s.Filters.Name)
		if err != nil {
			return &fieldError{"filters.name", fmt.Sprintf("filters: name: %v", err)}
		}
		s.nameRE = re
	}
	ms := master.Source{Type: s.Type, Preset: s.Preset, KeyFile: s.KeyFile}
	if s.Fields != nil {
		ms.Fields = *s.Fields
	}
	has := master.Carries(ms)
	for _, f := range []struct {
		key, field, what string
		set, carried     bool
	}{
		{"name", "name", "server names", s.Filters.Name != "", has.Name},
		{"game", "game", "games", s.Filters.Game != "", has.Game},
		{"map", "map", "maps", s.Filters.Map != "", has.Map},
		{"not_empty", "players", "player counts", s.Filters.NotEmpty, has.Players},
	} {
		if !f.set || f.carried {
			continue
		}
		msg := fmt.Sprintf("filters: %s: this %s list has no %s, so the filter cannot apply (lists that have them: %s)",
			f.key, s.what(), f.what, strings.Join(master.CarriedBy(f.field), ", "))
		if f.key == "not_empty" && (s.Type == master.TypeSteam || s.Type == master.TypeQuake3) {
			msg += "; ask the master for servers with players in the query instead (Steam `\\empty\\1`; getservers without `empty`)"
		}
		return &fieldError{"filters." + f.key, msg}
	}
	return nil
}

// what names the source's kind of list for messages.
func (s *DiscoverySource) what() string {
	switch {
	case s.Preset != "":
		return "preset " + s.Preset
	case s.Type == master.TypeSteam && s.KeyFile == "":
		return "steam (without key_file)"
	}
	return s.Type
}

func (s *DiscoverySource) compile(moduleExists func(string) bool) error {
	if s.Module != "" && moduleExists != nil && !moduleExists(s.Module) {
		return &fieldError{"module", fmt.Sprintf("module %q is not defined", s.Module)}
	}
	if err := s.compilePreset(); err != nil {
		return &fieldError{"preset", err.Error()}
	}
	if err := s.compileTimes(); err != nil {
		return err
	}
	if err := s.compileFilters(); err != nil {
		return err
	}
	if s.Fields != nil && s.Type != master.TypeHTTPJSON {
		return &fieldError{"fields", fmt.Sprintf("fields are for type %s only", master.TypeHTTPJSON)}
	}
	ms := master.Source{
		Type: s.Type, Address: s.Address, URL: s.URL, Path: s.Path, Query: s.Query, Region: s.Region, MaxEntries: s.MaxTargets,
		KeyFile: s.KeyFile, Preset: s.Preset, Username: s.Username, TokenFile: s.TokenFile,
		Headers: s.Headers, HeaderFiles: s.HeaderFiles,
	}
	if s.Fields != nil {
		ms.Fields = *s.Fields
	}
	l, err := master.New(ms)
	if err != nil {
		return err
	}
	s.lister = l
	s.compare = fmt.Sprintf("%+v|%+v|%v|%v|%v|%v", ms, s.Filters, s.Module, s.Refresh, s.Timeout, s.Fields)
	for _, name := range slices.Sorted(maps.Keys(s.Headers)) {
		// A Secret prints as <secret>: a changed value restarts the source
		// through its hash.
		h := fnv.New64a()
		h.Write([]byte(s.Headers[name].Reveal()))
		s.compare += fmt.Sprintf("|header %s %x", name, h.Sum64())
	}
	files := []string{s.KeyFile, s.TokenFile}
	for _, name := range slices.Sorted(maps.Keys(s.HeaderFiles)) {
		files = append(files, s.HeaderFiles[name])
	}
	for _, f := range files {
		if fi, err := os.Stat(f); f != "" && err == nil {
			// A reload re-reads the key: a changed file restarts the source.
			s.compare += fmt.Sprintf("|key %s %d %d", f, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return nil
}

// PresetSource returns the compiled built-in source of a preset (what a
// list-lookup module of the catalog reads when the modules file defines no
// source of that name): the preset's list, at url when url is not "" (tests
// give a loopback fake; no request can): for a TCP master (scum), its address.
func PresetSource(preset, url string) (*DiscoverySource, error) {
	p, ok := master.LookupPreset(preset)
	if !ok {
		return nil, fmt.Errorf("no built-in list %q", preset)
	}
	if p.Credential {
		return nil, fmt.Errorf("the %s list lists servers to a signed-in player only: define the source in the modules file "+
			"(discovery: {%s: {preset: %s, username: NAME, token_file: PATH}})", p.Name, p.Name, p.Name)
	}
	s := &DiscoverySource{Preset: preset, URL: url}
	if p.Type == master.TypeSCUM { // a TCP master: url is its address
		s.URL, s.Address = "", url
	}
	if err := s.compile(nil); err != nil {
		return nil, fmt.Errorf("built-in list %q: %w", preset, err)
	}
	return s, nil
}

// Names returns the source names, sorted.
func (c Discovery) Names() []string {
	out := make([]string, 0, len(c))
	for n := range c {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// CheckListedIn checks a module's listed_in names against the sources.
func (c Discovery) CheckListedIn(names []string) error {
	for _, n := range names {
		if _, ok := c[n]; !ok {
			known := c.Names()
			if len(known) == 0 {
				return fmt.Errorf("listed_in: source %q: the modules file has no discovery sources", n)
			}
			return fmt.Errorf("listed_in: source %q is not defined (known: %s)", n, strings.Join(known, ", "))
		}
	}
	return nil
}

// Keep reports whether a server passes the source's filters.
func (s *DiscoverySource) Keep(name, game, mapName string, players int64, playersKnown bool) bool {
	f := &s.Filters
	if s.nameRE != nil && !s.nameRE.MatchString(name) {
		return false
	}
	if f.Game != "" && !strings.EqualFold(f.Game, game) {
		return false
	}
	if f.Map != "" && !strings.EqualFold(f.Map, mapName) {
		return false
	}
	if f.NotEmpty && playersKnown && players == 0 {
		return false
	}
	return true
}

// Lister is the source's compiled lister.
func (s *DiscoverySource) Lister() master.Lister { return s.lister }

// Same reports whether two compiled sources have the same settings, so a
// reload keeps the running one and its list.
func (s *DiscoverySource) Same(o *DiscoverySource) bool { return s.compare == o.compare }

// compileDiscovery compiles the discovery section and checks every module's
// listed_in against it: every error, each placed at its key.
func (c *Config) compileDiscovery(file string, p positions) []error {
	var errs []error
	for _, name := range c.Discovery.Names() {
		if err := c.Discovery.compileSource(name, func(m string) bool { _, ok := c.Modules[m]; return ok }); err != nil {
			errs = append(errs, sourceError(file, p, name, err))
		}
	}
	if len(errs) > 0 {
		return errs // listed_in would only repeat them
	}
	for _, name := range c.Names() {
		if err := c.Discovery.CheckListedIn(c.Modules[name].ListedIn); err != nil {
			errs = append(errs, moduleError(file, p, name, &fieldError{"listed_in", err.Error()}))
		}
	}
	return errs
}
