package minecraft

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/mctext"
)

// The Better Compatibility Checker mod (BCC; Forge, NeoForge, Fabric) announces
// the server's modpack in the status reply, so that a client can compare it with
// its own. Its releases put the object in one of three places (from the mod's
// source, github.com/nanite/BetterCompatibilityChecker):
//
//   - "modpackData" in the status JSON (Minecraft 1.16-1.19.3): projectID, name,
//     version, versionID, releaseType, isMetadata. The mod removes forgeData from
//     that JSON, so nothing else says the server is modded.
//   - a second String (VarInt byte length + JSON) after the status JSON, inside the
//     same packet (1.19.4-1.21.1): projectId, name, version, versionId,
//     releaseType, isMetaData (the 1.21.1 NeoForge build: name, version,
//     isMetaData only). Forge 1.20 builds also add it to the JSON as "better-status".
//   - "betterStatus" in the status JSON (BCC 21.x, 1.21+): name, version, isMetaData.
//
// gamedig reads only the second String, skipping a 1-byte length, and keeps it raw.

// Where a modpack was found, reported in Info["modpack_source"].
const (
	packInJSON     = "betterStatus"
	packInForge    = "better-status"
	packInOld      = "modpackData"
	packAfterJSON  = "second_string"
	maxPackJSONLen = 64 << 10 // a second String longer than this is not BCC's small object
)

// modpack is what BCC announces. Strings are "" when absent or left at one of
// the mod's placeholders.
type modpack struct {
	Name, Version, ReleaseType string
	ProjectID                  int64
	HasProjectID               bool
	Source                     string
}

// placeholders are the mod's defaults for a value its config does not set:
// "??" (codec default), "CHANGE_ME" (config default), "INVALID/NOT_SET" (old builds).
var placeholders = map[string]bool{"??": true, "CHANGE_ME": true, "INVALID/NOT_SET": true}

// modpack reads the object from the status JSON, preferring the newest shape.
func (st *status) modpack(raw rawStatus) {
	for _, c := range []struct {
		m      json.RawMessage
		source string
	}{{raw.BetterStatus, packInJSON}, {raw.BetterStatusForge, packInForge}, {raw.ModpackData, packInOld}} {
		if isSet(c.m) {
			st.setPack(c.m, c.source)
			return
		}
	}
}

// packAfter reads the second String some builds append after the status
// JSON. Anything else there is left alone with a warning.
func (st *status) packAfter(b []byte) {
	sr := sliceReader{b: b}
	n, err := readVarInt(&sr, "second string length")
	left := len(b) - sr.off
	if err != nil || n <= 0 || n > maxPackJSONLen || int(n) > left {
		st.warn("%d bytes after the status JSON are not a String", len(b))
		return
	}
	js := bytes.TrimSpace(b[sr.off : sr.off+int(n)])
	if len(js) == 0 || js[0] != '{' {
		st.warn("the String after the status JSON is not a JSON object")
		return
	}
	st.setPack(js, packAfterJSON)
}

// setPack decodes one modpack object. Any object counts (it is the mod's
// announcement, so the server is modded); fields of other types are skipped.
func (st *status) setPack(m json.RawMessage, source string) {
	var f struct {
		Name        json.RawMessage `json:"name"`
		Version     json.RawMessage `json:"version"`
		ReleaseType json.RawMessage `json:"releaseType"`
		ProjectID   json.RawMessage `json:"projectId"` // encoding/json also matches the old "projectID"
	}
	if err := json.Unmarshal(m, &f); err != nil {
		st.warn("%s: %v", source, err)
		return
	}
	p := &modpack{Source: source}
	text := func(field string, v json.RawMessage) string {
		var s string
		if isSet(v) && json.Unmarshal(v, &s) != nil {
			st.warn("%s.%s is not a string", source, field)
		}
		s = oneLine(mctext.StripCodes(s))
		if placeholders[s] {
			return ""
		}
		return s
	}
	p.Name, p.Version, p.ReleaseType = text("name", f.Name), text("version", f.Version), text("releaseType", f.ReleaseType)
	if isSet(f.ProjectID) {
		var n json.Number
		if json.Unmarshal(f.ProjectID, &n) == nil {
			if id, err := n.Int64(); err == nil && id >= 0 { // -1: no CurseForge project
				p.ProjectID, p.HasProjectID = id, true
			}
		}
	}
	st.Pack = p
	st.Modded = protocols.FlagTrue
}

// info lists the modpack's fields for Result.Info.
func (p *modpack) info() []protocols.KV {
	out := []protocols.KV{{Key: "modpack_source", Value: p.Source}}
	for _, f := range []protocols.KV{{Key: "modpack", Value: p.Name}, {Key: "modpack_version", Value: p.Version},
		{Key: "modpack_release_type", Value: p.ReleaseType}} {
		if f.Value != "" {
			out = append(out, f)
		}
	}
	if p.HasProjectID {
		out = append(out, protocols.KV{Key: "modpack_project_id", Value: strconv.FormatInt(p.ProjectID, 10)})
	}
	return out
}
