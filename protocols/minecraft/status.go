package minecraft

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/mctext"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Formats of a decoded reply, reported in Info["format"].
const (
	formatSLP        = "slp"         // 1.7+ Server List Ping JSON
	formatLegacy14   = "legacy_1.4"  // "§1\0…" kick text (1.4-1.6; 1.7+ servers answering a legacy ping)
	formatLegacyBeta = "legacy_beta" // "motd§online§max" kick text (beta 1.8-1.3)
)

const (
	// maxDescriptionDepth caps the nesting of chat components that is flattened.
	maxDescriptionDepth = 32
	// maxSample caps the player sample entries kept (vanilla sends 12).
	maxSample = 256
	// nilUUID is the id plugins give fake sample entries used as text lines.
	nilUUID = "00000000-0000-0000-0000-000000000000"
)

// status is a decoded status reply, modern or legacy.
type status struct {
	Format      string
	MOTD        string // plain text: components flattened, § codes stripped, one line
	VersionName string // § codes stripped
	Protocol    int64
	HasProtocol bool
	Online, Max protocols.Count
	// Sample holds the names of players.sample (a partial list), § codes
	// stripped, fake text lines (nil UUID) left out.
	Sample     []string
	SecureChat protocols.Flag // enforcesSecureChat
	Modded     protocols.Flag // modinfo / forgeData / a BCC modpack present, or isModded true
	ModLoader  string         // "FML" (modinfo type) or "forge" (forgeData)
	Mods       int            // entries in modinfo.modList / forgeData.mods
	Trailing   int            // bytes after the JSON string in the frame
	Pack       *modpack       // the modpack Better Compatibility Checker announces (bcc.go)
	// Warnings are oddities that did not fail the decode (logged to the trace).
	Warnings []string
}

// rawStatus is decoded first with every field raw, so that one field of an
// unexpected shape only loses that field. favicon is not listed: the decoder
// skips it without copying its base64.
type rawStatus struct {
	Description        json.RawMessage `json:"description"`
	Players            json.RawMessage `json:"players"`
	Version            json.RawMessage `json:"version"`
	EnforcesSecureChat json.RawMessage `json:"enforcesSecureChat"`
	ModInfo            json.RawMessage `json:"modinfo"`
	ForgeData          json.RawMessage `json:"forgeData"`
	IsModded           json.RawMessage `json:"isModded"`
	// Better Compatibility Checker's modpack, by mod release (bcc.go).
	BetterStatus      json.RawMessage `json:"betterStatus"`
	BetterStatusForge json.RawMessage `json:"better-status"`
	ModpackData       json.RawMessage `json:"modpackData"`
}

// parseStatusJSON decodes the status JSON. Only a document that is not a JSON
// object fails; fields of unexpected types are skipped with a warning. Invalid
// UTF-8 inside strings becomes U+FFFD (encoding/json does that).
func parseStatusJSON(js []byte) (status, error) {
	st := status{Format: formatSLP}
	js = bytes.TrimSpace(js)
	if len(js) == 0 || js[0] != '{' {
		return status{}, fmt.Errorf("%w: status JSON is not an object: %.40q", wire.ErrMalformed, js)
	}
	var raw rawStatus
	if err := json.Unmarshal(js, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return status{}, fmt.Errorf("%w: status JSON at offset %d: %v", wire.ErrMalformed, se.Offset, err)
		}
		return status{}, fmt.Errorf("%w: status JSON: %v", wire.ErrMalformed, err)
	}
	st.description(raw.Description)
	st.players(raw.Players)
	st.version(raw.Version)
	if isSet(raw.EnforcesSecureChat) {
		var b bool
		if json.Unmarshal(raw.EnforcesSecureChat, &b) == nil {
			st.SecureChat = protocols.FlagOf(b)
		} else {
			st.warn("enforcesSecureChat is not a boolean")
		}
	}
	st.mods(raw)
	st.modpack(raw)
	return st, nil
}

func (st *status) warn(format string, args ...any) {
	st.Warnings = append(st.Warnings, fmt.Sprintf(format, args...))
}

// isSet reports a field that is present and not null.
func isSet(m json.RawMessage) bool { return len(m) > 0 && string(m) != "null" }

// description flattens a string or chat component MOTD.
func (st *status) description(m json.RawMessage) {
	if !isSet(m) {
		return
	}
	d := json.NewDecoder(bytes.NewReader(m))
	d.UseNumber() // a number component keeps its literal text
	var v any
	if err := d.Decode(&v); err != nil {
		st.warn("description: %v", err)
		return
	}
	var sb strings.Builder
	if flatten(&sb, v, 0) {
		st.warn("description nested deeper than %d components: the rest is left out", maxDescriptionDepth)
	}
	st.MOTD = oneLine(mctext.StripCodes(sb.String()))
}

// flatten writes a chat component's text depth first: its "text", then each of
// its "extra" children; an array is a list of components; a bare string,
// number or boolean is text. "translate" keys are not resolved. It reports
// whether the depth cap cut something off.
func flatten(sb *strings.Builder, v any, depth int) (cut bool) {
	if depth > maxDescriptionDepth {
		return true
	}
	switch c := v.(type) {
	case string:
		sb.WriteString(c)
	case json.Number:
		sb.WriteString(c.String())
	case bool:
		sb.WriteString(strconv.FormatBool(c))
	case []any:
		for _, e := range c {
			cut = flatten(sb, e, depth+1) || cut
		}
	case map[string]any:
		switch t := c["text"].(type) {
		case string, json.Number, bool:
			cut = flatten(sb, t, depth+1)
		}
		if extra, ok := c["extra"].([]any); ok {
			for _, e := range extra {
				cut = flatten(sb, e, depth+1) || cut
			}
		}
	}
	return cut
}

func (st *status) players(m json.RawMessage) {
	if !isSet(m) {
		return
	}
	var p struct {
		Online json.RawMessage   `json:"online"`
		Max    json.RawMessage   `json:"max"`
		Sample []json.RawMessage `json:"sample"`
	}
	if err := json.Unmarshal(m, &p); err != nil {
		// Retry without the sample, which is the usual culprit.
		var counts struct{ Online, Max json.RawMessage }
		if json.Unmarshal(m, &counts) != nil {
			st.warn("players: %v", err)
			return
		}
		st.warn("players.sample: %v", err)
		p.Online, p.Max, p.Sample = counts.Online, counts.Max, nil
	}
	st.Online = st.count("players.online", p.Online)
	st.Max = st.count("players.max", p.Max)
	if len(p.Sample) > maxSample {
		st.warn("players.sample has %d entries, %d kept", len(p.Sample), maxSample)
		p.Sample = p.Sample[:maxSample]
	}
	st.Sample = make([]string, 0, len(p.Sample))
	for i, e := range p.Sample {
		var sp struct {
			Name string `json:"name"`
			ID   string `json:"id"`
		}
		if err := json.Unmarshal(e, &sp); err != nil {
			st.warn("players.sample[%d]: %v", i, err)
			continue
		}
		name := strings.TrimSpace(mctext.StripCodes(sp.Name))
		if sp.ID == nilUUID || name == "" {
			continue // a text line or a blank, not a player
		}
		st.Sample = append(st.Sample, name)
	}
}

// count decodes a player count: an integer that is not negative, else unknown.
func (st *status) count(field string, m json.RawMessage) protocols.Count {
	if !isSet(m) {
		return protocols.Count{}
	}
	var n json.Number
	if err := json.Unmarshal(m, &n); err != nil {
		st.warn("%s is not a number: %.40s", field, m)
		return protocols.Count{}
	}
	v, err := n.Int64()
	if err != nil || v < 0 {
		st.warn("%s %s is not a count", field, n)
		return protocols.Count{}
	}
	return protocols.Known(v)
}

func (st *status) version(m json.RawMessage) {
	if !isSet(m) {
		return
	}
	var v struct {
		Name     json.RawMessage `json:"name"`
		Protocol json.RawMessage `json:"protocol"`
	}
	if err := json.Unmarshal(m, &v); err != nil {
		st.warn("version: %v", err)
		return
	}
	var name string
	if isSet(v.Name) && json.Unmarshal(v.Name, &name) != nil {
		st.warn("version.name is not a string")
	}
	st.VersionName = strings.TrimSpace(mctext.StripCodes(name))
	if isSet(v.Protocol) {
		var n json.Number
		if json.Unmarshal(v.Protocol, &n) == nil {
			if p, err := n.Int64(); err == nil {
				st.Protocol, st.HasProtocol = p, true
				return
			}
		}
		st.warn("version.protocol is not an integer: %.40s", v.Protocol)
	}
}

// mods sets the Forge details: modinfo (Forge 1.7-1.12, {"type":"FML",
// "modList":[…]}) or forgeData (1.13+, {"mods":[…], …}, the list possibly
// compressed into "d"), and NeoForge's isModded.
func (st *status) mods(raw rawStatus) {
	var list struct {
		Type    string            `json:"type"`
		ModList []json.RawMessage `json:"modList"`
		Mods    []json.RawMessage `json:"mods"`
	}
	switch {
	case isSet(raw.ForgeData):
		st.Modded, st.ModLoader = protocols.FlagTrue, "forge"
		if json.Unmarshal(raw.ForgeData, &list) != nil {
			st.warn("forgeData is not an object with a mods list")
		}
		st.Mods = len(list.Mods)
	case isSet(raw.ModInfo):
		st.Modded, st.ModLoader = protocols.FlagTrue, "FML"
		if json.Unmarshal(raw.ModInfo, &list) != nil {
			st.warn("modinfo is not an object with a modList")
		}
		if list.Type != "" {
			st.ModLoader = list.Type
		}
		st.Mods = len(list.ModList)
	}
	var b bool
	if isSet(raw.IsModded) && json.Unmarshal(raw.IsModded, &b) == nil && b {
		st.Modded = protocols.FlagTrue
	}
}

// Result turns the status into a probe result; the player list (the sample) only
// when players is set, and only for the modern format, which has one.
func (st *status) Result(players bool) *protocols.Result {
	res := &protocols.Result{
		Game:       "Minecraft",
		Name:       st.MOTD,
		Version:    st.VersionName,
		Players:    st.Online,
		MaxPlayers: st.Max,
		Modded:     st.Modded,
	}
	info := []protocols.KV{{Key: "format", Value: st.Format}}
	add := func(k, v string) { info = append(info, protocols.KV{Key: k, Value: v}) }
	if st.HasProtocol {
		add("protocol", strconv.FormatInt(st.Protocol, 10))
	}
	if st.VersionName != "" {
		add("version", st.VersionName)
	}
	if st.Format == formatSLP {
		// The sample is partial: its size says nothing about the player count.
		add("players_sample", strconv.Itoa(len(st.Sample)))
		if players {
			res.PlayerList = make([]protocols.Player, len(st.Sample))
			for i, n := range st.Sample {
				res.PlayerList[i] = protocols.Player{Name: n}
			}
		}
	}
	if st.SecureChat != protocols.FlagUnknown {
		add("enforces_secure_chat", strconv.FormatBool(st.SecureChat == protocols.FlagTrue))
	}
	if st.ModLoader != "" {
		add("mod_loader", st.ModLoader)
		add("mods", strconv.Itoa(st.Mods))
	}
	if p := st.Pack; p != nil {
		// Game is "game or mod name as the server reports it": a BCC server
		// names its modpack, which says more than "Minecraft" (as A2S reports a
		// mod's name). Version stays the Minecraft version, the one a client must
		// match to join; the pack's version goes to Info.
		if p.Name != "" {
			res.Game = p.Name
		}
		info = append(info, p.info()...)
	}
	res.Info = info
	return res
}
