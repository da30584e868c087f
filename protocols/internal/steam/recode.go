package steam

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// A module's `encoding:` (a2s, goldsrc) names the code page of a server whose
// strings are neither UTF-8 nor Windows-1252 (a Cyrillic GoldSrc server writes
// Windows-1251). Recode reads the strings as sent with it, once, before Result:
// Result and KV take valid UTF-8 as it is, so they keep that reading.

// TextFor returns the decoder the `encoding:` of protocol name's options block
// (CacheOptions) names, nil for the default (Text).
func TextFor(name string, s protocols.Settings) (func([]byte) string, error) {
	var opts CacheOptions
	if err := s.DecodeOptions(name, &opts); err != nil {
		return nil, err
	}
	return opts.Encoding.Or(nil), nil
}

// Recode decodes the info's strings with text.
func (in *Info) Recode(text func([]byte) string) {
	recode(text, &in.Address, &in.Name, &in.Map, &in.Folder, &in.Game, &in.Version, &in.SpectatorName, &in.Keywords)
	if m := in.Mod; m != nil {
		recode(text, &m.Link, &m.DownloadLink, &m.Reserved)
	}
}

// Recode decodes the player names with text.
func (p *Players) Recode(text func([]byte) string) {
	for i := range p.List {
		recode(text, &p.List[i].Name)
	}
}

// Recode decodes the rules with text.
func (r *Rules) Recode(text func([]byte) string) { RecodeKV(text, r.List) }

// RecodeKV decodes the keys and values of list with text, in place.
func RecodeKV(text func([]byte) string, list []protocols.KV) {
	for i := range list {
		recode(text, &list[i].Key, &list[i].Value)
	}
}

func recode(text func([]byte) string, s ...*string) {
	for _, p := range s {
		*p = text([]byte(*p))
	}
}
