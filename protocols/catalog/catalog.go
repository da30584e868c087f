// Package catalog maps games to the protocol they answer, their default game port and
// where their query port lies relative to it. Each becomes a built-in module named
// after the game, so "monitor my Valheim server" is module=valheim and the server's
// game port. Ports are facts from the cited sources; no code was taken from them.
package catalog

// Game is one catalog row.
type Game struct {
	Module   string // built-in module name
	Name     string // the game, for people
	Protocol string // protocol module it speaks
	Port     uint16 // default game port: what a target without a port gets
	// Offsets are added to the game port to find the query port, tried in order
	// within the probe's deadline (the answering one is gameserver_query_port).
	Offsets []int
	Source  string // where the ports come from
}

// QueryRules reports whether the game's module asks for rules by default: Arma 3
// and DayZ list their mods in their A2S rules, which a user monitoring them wants
// without configuring anything.
func (g Game) QueryRules() bool { return rulesGames[g.Module] }

var rulesGames = map[string]bool{"arma3": true, "dayz": true}

// Where the ports come from.
const (
	srcGamedig = "gamedig 5.3 games list"
	srcQstat   = "qstat 2.17 default ports"
	srcValve   = "Valve Developer Community: Source Dedicated Server (27015)"
	srcSpec    = "shared/protocols spec"
)

// Games lists the catalog, sorted by module name.
var Games = []Game{
	{"7daystodie", "7 Days to Die", "a2s", 26900, []int{0, 1}, "7 Days to Die serverconfig.xml (ServerPort 26900; Steam query on it, some hosts on +1)"},
	{"abioticfactor", "Abiotic Factor", "a2s", 27015, []int{0}, srcGamedig},
	{"ark", "ARK: Survival Evolved", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)"},
	{"arma3", "Arma 3", "a2s", 2302, []int{1}, srcGamedig + " (query = game port + 1)"},
	{"armareforger", "Arma Reforger", "a2s", 2001, []int{17777 - 2001}, srcGamedig + " (game 2001, A2S 17777)"},
	{"avorion", "Avorion", "a2s", 27000, []int{20, 3}, srcGamedig + " (offset 20); older servers +3"},
	{"barotrauma", "Barotrauma", "a2s", 27015, []int{1}, srcGamedig},
	{"battalion1944", "Battalion 1944", "a2s", 7777, []int{3}, srcGamedig},
	{"bf1942", "Battlefield 1942", "gamespy1", 14567, []int{23000 - 14567}, srcGamedig + "; " + srcQstat + " (query 23000)"},
	{"bf2", "Battlefield 2", "gamespy3", 16567, []int{29900 - 16567}, srcGamedig + " (game 16567, query 29900)"},
	{"bf2142", "Battlefield 2142", "gamespy3", 17567, []int{29900 - 17567}, srcQstat + " (query 29900)"},
	{"bfvietnam", "Battlefield Vietnam", "gamespy2", 15567, []int{23000 - 15567}, srcGamedig + " (query 23000)"},
	{"blackmesa", "Black Mesa", "a2s", 27015, []int{0}, srcGamedig},
	{"cod", "Call of Duty", "quake3", 28960, []int{0}, srcGamedig + "; " + srcQstat},
	{"cod2", "Call of Duty 2", "quake3", 28960, []int{0}, srcGamedig},
	{"cod4", "Call of Duty 4: Modern Warfare", "quake3", 28960, []int{0}, srcGamedig},
	{"conanexiles", "Conan Exiles", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)"},
	{"cs16", "Counter-Strike 1.6", "a2s", 27015, []int{0}, srcGamedig},
	{"cs2", "Counter-Strike 2", "a2s", 27015, []int{0}, srcValve},
	{"csgo", "Counter-Strike: Global Offensive", "a2s", 27015, []int{0}, srcValve},
	{"css", "Counter-Strike: Source", "a2s", 27015, []int{0}, srcValve},
	{"dayz", "DayZ", "a2s", 2302, []int{27016 - 2302, 1}, srcGamedig + " (steamQueryPort 27016); some hosts use game port + 1"},
	{"dod", "Day of Defeat", "a2s", 27015, []int{0}, srcGamedig},
	{"dods", "Day of Defeat: Source", "a2s", 27015, []int{0}, srcValve},
	{"dontstarvetogether", "Don't Starve Together", "a2s", 10999, []int{27016 - 10999}, srcGamedig + " (game 10999, query 27016)"},
	{"enemyterritory", "Wolfenstein: Enemy Territory", "quake3", 27960, []int{0}, srcQstat + " (27960)"},
	{"enshrouded", "Enshrouded", "a2s", 15636, []int{1}, srcGamedig + " (query 15637)"},
	{"etqw", "Enemy Territory: Quake Wars", "doom3", 27733, []int{0}, srcGamedig + " (query 27733)"},
	{"garrysmod", "Garry's Mod", "a2s", 27015, []int{0}, srcValve},
	{"halflife", "Half-Life Deathmatch (GoldSrc)", "a2s", 27015, []int{0}, srcValve},
	{"halo", "Halo: Combat Evolved", "gamespy2", 2302, []int{0}, srcGamedig},
	{"hl2dm", "Half-Life 2: Deathmatch", "a2s", 27015, []int{0}, srcValve},
	{"hurtworld", "Hurtworld", "a2s", 12871, []int{10}, srcGamedig + " (game 12871, query 12881)"},
	{"icarus", "Icarus", "a2s", 27015, []int{0}, srcGamedig},
	{"insurgency", "Insurgency", "a2s", 27015, []int{0}, srcGamedig},
	{"insurgencysandstorm", "Insurgency: Sandstorm", "a2s", 27015, []int{1}, srcGamedig},
	{"jediacademy", "Star Wars Jedi Knight: Jedi Academy", "quake3", 29070, []int{0}, srcSpec + " quake3.md; " + srcQstat},
	{"jedioutcast", "Star Wars Jedi Knight II: Jedi Outcast", "quake3", 28070, []int{0}, srcSpec + " quake3.md; " + srcQstat},
	{"killingfloor2", "Killing Floor 2", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)"},
	{"l4d", "Left 4 Dead", "a2s", 27015, []int{0}, srcValve},
	{"l4d2", "Left 4 Dead 2", "a2s", 27015, []int{0}, srcValve},
	{"minecraft", "Minecraft: Java Edition", "minecraft", 25565, []int{0}, srcGamedig + "; SRV _minecraft._tcp followed for names without a port"},
	{"minecraft_query", "Minecraft: Java Edition, Query (enable-query)", "gamespy4", 25565, []int{0}, "Minecraft server.properties (query.port defaults to server-port 25565)"},
	{"mohaa", "Medal of Honor: Allied Assault", "gamespy1", 12203, []int{97}, srcGamedig + " (game 12203, query 12300)"},
	{"mordhau", "Mordhau", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)"},
	{"mta", "Multi Theft Auto: San Andreas", "ase", 22003, []int{123}, srcSpec + " ase.md (ASE on game port + 123)"},
	{"nexuiz", "Nexuiz", "darkplaces", 26000, []int{0}, srcGamedig + "; DarkPlaces getstatus"},
	{"nmrih", "No More Room in Hell", "a2s", 27015, []int{0}, srcGamedig},
	{"openarena", "OpenArena", "quake3", 27960, []int{0}, srcGamedig},
	{"palworld", "Palworld", "a2s", 8211, []int{27015 - 8211}, "Palworld dedicated server guide (game UDP 8211, Steam query UDP 27015)"},
	{"pixark", "PixARK", "a2s", 7777, []int{27015 - 7777}, srcGamedig},
	{"prey", "Prey (2006)", "doom3", 27719, []int{0}, srcGamedig},
	{"projectzomboid", "Project Zomboid", "a2s", 16261, []int{0}, srcGamedig},
	{"quake", "Quake (QuakeWorld: mvdsv, ezQuake servers)", "quakeworld", 27500, []int{0}, srcQstat + " (QW 27500)"},
	{"quake4", "Quake 4", "doom3", 28004, []int{0}, srcGamedig},
	{"quakelive", "Quake Live", "a2s", 27960, []int{0}, srcGamedig + " (Quake Live answers A2S)"},
	{"redeclipse", "Red Eclipse", "cube2", 28801, []int{1}, srcQstat + " (cube2 family: info on game port + 1)"},
	{"rtcw", "Return to Castle Wolfenstein", "quake3", 27960, []int{0}, srcGamedig},
	{"rust", "Rust", "a2s", 28015, []int{0, 1, 2}, srcGamedig + " (game 28015); server.queryport is often game port + 1 or 28017"},
	{"sauerbraten", "Cube 2: Sauerbraten", "cube2", 28785, []int{1}, srcQstat + " (query = game port + 1)"},
	{"sof2", "Soldier of Fortune II", "quake3", 20100, []int{0}, srcGamedig},
	{"soulmask", "Soulmask", "a2s", 8777, []int{27015 - 8777}, srcGamedig + " (game 8777, query 27015)"},
	{"spaceengineers", "Space Engineers", "a2s", 27015, []int{0}, srcGamedig},
	{"squad", "Squad", "a2s", 7787, []int{27165 - 7787}, "Squad server docs (Port 7787, QueryPort 27165)"},
	{"starbound", "Starbound", "a2s", 21025, []int{0}, srcGamedig},
	{"swat4", "SWAT 4", "gamespy2", 10480, []int{2}, srcGamedig},
	{"tf2", "Team Fortress 2", "a2s", 27015, []int{0}, srcValve},
	{"theforest", "The Forest", "a2s", 27015, []int{1}, srcGamedig},
	{"theisle", "The Isle", "a2s", 7707, []int{1}, srcGamedig},
	{"thelongdark", "The Long Dark (Sky Co-op)", "skycoop", 26950, []int{0}, srcSpec + " skycoop.md"},
	{"unturned", "Unturned", "a2s", 27015, []int{1}, srcGamedig},
	{"urbanterror", "Urban Terror", "quake3", 27960, []int{0}, srcGamedig},
	{"ut3", "Unreal Tournament 3", "gamespy3", 7777, []int{6500 - 7777}, srcGamedig + " (game 7777, query 6500)"},
	{"ut99", "Unreal Tournament (1999)", "gamespy1", 7777, []int{1}, srcGamedig + " (query = game port + 1)"},
	{"valheim", "Valheim", "a2s", 2456, []int{1}, srcGamedig + " (query = game port + 1)"},
	{"vrising", "V Rising", "a2s", 9876, []int{1, 15}, "V Rising ServerHostSettings.json (Port 9876, QueryPort 9877); " + srcGamedig + " offsets"},
	{"warsow", "Warsow", "quake3", 44400, []int{0}, srcGamedig},
	{"xonotic", "Xonotic", "darkplaces", 26000, []int{0}, srcGamedig + "; DarkPlaces getstatus"},
}

// Lookup returns the catalog row for a module name.
func Lookup(module string) (Game, bool) {
	for _, g := range Games {
		if g.Module == module {
			return g, true
		}
	}
	return Game{}, false
}
