package master

// What each type of list says about a server beyond its address: a source's
// filters (package config) are refused when its list can never fill the field
// they test, since they would drop every server or none.

// Carried says which of an Entry's fields a source's list fills.
type Carried struct{ Name, Map, Game, Players bool }

// Carries says which fields s's list fills: UDP masters and files list
// addresses only; a panel names its servers; RAGE MP's and SCUM's lists
// names and counts; the HTTP lists and the Steam Web
// API (type steam with key_file) know names, maps and counts; an http_json
// list what its field map (or its preset's) maps.
func Carries(s Source) Carried {
	typ, f := s.Type, s.Fields
	if p, ok := LookupPreset(s.Preset); ok {
		typ = p.Type
		if f == (Fields{}) {
			f = p.Fields
		}
	}
	switch typ {
	case TypeDDNet:
		return Carried{Name: true, Map: true, Game: true, Players: true}
	case TypeGeneshift:
		return Carried{Name: true, Map: true, Players: true}
	case TypeRageMP, TypeSCUM:
		return Carried{Name: true, Players: true}
	case TypePterodactyl:
		return Carried{Name: true}
	case TypeSteam:
		if s.KeyFile != "" {
			return Carried{Name: true, Map: true, Game: true, Players: true}
		}
	case TypeHTTPJSON:
		return Carried{Name: f.Name != "", Map: f.Map != "", Game: f.Game != "", Players: f.Players != ""}
	}
	return Carried{}
}

// CarriedBy names the sources whose lists fill field (one of Carried's, as a
// filter names it: "name", "map", "game", "players"), for messages.
func CarriedBy(field string) []string {
	var out []string
	for _, t := range Types {
		switch {
		case carried(Carries(Source{Type: t}), field):
			out = append(out, t)
		case t == TypeSteam && carried(Carries(Source{Type: t, KeyFile: "key"}), field):
			out = append(out, t+" with key_file")
		case t == TypeHTTPJSON:
			out = append(out, t+" mapping fields."+field)
		}
	}
	return out
}

func carried(c Carried, field string) bool {
	switch field {
	case "name":
		return c.Name
	case "map":
		return c.Map
	case "game":
		return c.Game
	case "players":
		return c.Players
	}
	return false
}
