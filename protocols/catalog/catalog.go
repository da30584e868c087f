// Package catalog maps games to the protocol they answer, their default game port and
// where their query port lies relative to it. Each becomes a built-in module named
// after the game, so "monitor my Valheim server" is module=valheim and the server's
// game port. Every row cites where its ports come from; no code was taken from the
// sources. A game is listed only when its server answers some status query: SCUM
// (its own master server), Pavlov VR and Stationeers (no query their tools use) are
// not.
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

// QueryRules reports whether the game's module asks for rules by default, because
// what a user monitoring it wants is there: Arma 3 and DayZ list their mods in their
// A2S rules, Battalion 1944 keeps its server name, player counts and password flag
// in bat_* rules, and Soulmask its real version in NO_s (its A2S_INFO says 1.0.0.0).
func (g Game) QueryRules() bool { return rulesGames[g.Module] }

var rulesGames = map[string]bool{"arma3": true, "battalion1944": true, "dayz": true, "soulmask": true}

// Options returns the module's protocol block as YAML (the body of `<protocol>:`),
// for games that need more than ports: which EOS deployment holds their sessions,
// which GameSpy 3 dialect they speak. Empty for most games.
func (g Game) Options() string { return gameOptions[g.Module] }

var gameOptions = map[string]string{
	"arksa":           "preset: arksa",
	"justcause2mp":    "variant: jc2mp",
	"mumble_gtmurmur": "gtmurmur: true",
	"openmp":          "variant: openmp",
	"theisle":         "preset: theisle",
	"vcmp":            "variant: vcmp",
}

// Where the ports come from.
const (
	srcGamedig = "gamedig 5.3.2 lib/games.js"
	srcLGSM    = "LinuxGSM (Nov 2025) _default.cfg and info_game.sh"
	srcQstat   = "qstat 2.17 default ports"
	srcValve   = "Valve Developer Community: Source and GoldSrc dedicated servers (27015)"
)

// Games lists the catalog, sorted by module name.
var Games = []Game{
	{"7daystodie", "7 Days to Die", "a2s", 26900, []int{0, 1}, "serverconfig.xml ServerPort 26900; A2S on the game port since Alpha 17 (LinuxGSM issue 2109, sdtdserver queryport = port; GameQ issue 564); gamedig's +1 predates A17 and stays second for old servers"},
	{"abioticfactor", "Abiotic Factor", "a2s", 7777, []int{27015 - 7777}, "dedicated server launch defaults -Port=7777 -QueryPort=27015 (host guides: survivalconfigs.com, swarmhosts.com); gamedig lists only the A2S port 27015"},
	{"actionhalflife", "Action Half-Life", "a2s", 27015, []int{0}, srcGamedig + " (ahl)" + "; " + srcLGSM + " (ahlserver)"},
	{"actionsource", "Action: Source", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (ahl2server)"},
	{"alienarena", "Alien Arena", "quake2", 27910, []int{0}, srcGamedig + " (quake2 protocol, query 27910)"},
	{"alienswarm", "Alien Swarm", "a2s", 27015, []int{0}, srcGamedig},
	{"americantrucksimulator", "American Truck Simulator", "a2s", 27015, []int{1}, "SCS server_config.sii (connection_dedicated_port 27015, query_dedicated_port 27016)" + "; " + srcLGSM + " (atsserver queries A2S)"},
	{"americasarmy", "America's Army", "gamespy2", 1716, []int{1}, srcGamedig + " (port 1716, offset 1)"},
	{"ark", "ARK: Survival Evolved", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (ase: game 7777, query 27015)" + "; " + srcLGSM + " (arkserver)"},
	{"arksa", "ARK: Survival Ascended (EOS session)", "eos", 7777, []int{0}, "gamedig asa protocol (EOS matchmaking, wildcard deployment, game port 7777); ASA has no A2S"},
	{"arma2", "Arma 2", "a2s", 2302, []int{1}, srcGamedig + " (query = game port + 1)"},
	{"arma2oa", "Arma 2: Operation Arrowhead", "a2s", 2302, []int{1}, srcGamedig + " (a2oa: query = game port + 1)"},
	{"arma3", "Arma 3", "a2s", 2302, []int{1}, srcGamedig + " (query = game port + 1)" + "; " + srcLGSM + " (arma3server)"},
	{"armareforger", "Arma Reforger", "a2s", 2001, []int{17777 - 2001}, srcGamedig + " (game 2001, a2s.port 17777)"},
	{"atlas", "Atlas", "a2s", 5761, []int{51800}, srcGamedig + " (game 5761, query offset 51800)"},
	{"avorion", "Avorion", "a2s", 27000, []int{20, 3}, srcGamedig + " (offset 20)" + "; " + srcLGSM + " (avserver: query = port + 3 on older builds)"},
	{"ballisticoverkill", "Ballistic Overkill", "a2s", 27015, []int{1}, srcGamedig + "; " + srcLGSM + " (boserver: query = port + 1)"},
	{"barotrauma", "Barotrauma", "a2s", 27015, []int{1}, srcGamedig + " (query = game port + 1)"},
	{"basedefense", "Base Defense", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (bdserver)"},
	{"battalion1944", "Battalion 1944 / Battalion Legacy", "a2s", 7777, []int{3}, srcGamedig + " (offset 3)" + "; " + srcLGSM + " (btlserver: port 7777, queryport 7780)"},
	{"bf1942", "Battlefield 1942", "gamespy1", 14567, []int{23000 - 14567}, srcGamedig + " (game 14567, query 23000)" + "; " + srcQstat},
	{"bf2", "Battlefield 2", "gamespy3", 16567, []int{29900 - 16567}, srcGamedig + " (game 16567, query 29900)"},
	{"bf2142", "Battlefield 2142", "gamespy3", 17567, []int{29900 - 17567}, srcQstat + " (query 29900)"},
	{"bf3", "Battlefield 3 (RCON)", "frostbite", 47200, []int{0}, "BF3 PC Server Remote Administration Protocol (RCON on TCP 47200 by default; game port 25200 = RCON - 22000 per gamedig); targets name the RCON port"},
	{"bf4", "Battlefield 4 (RCON)", "frostbite", 47200, []int{0}, "BF4 PC Server Remote Administration Protocol (RCON on TCP 47200 by default; gamedig game 25200 + 22000); targets name the RCON port"},
	{"bfbc2", "Battlefield: Bad Company 2 (RCON)", "frostbite", 48888, []int{0}, srcGamedig + " (bbc2: game 19567, RCON query 48888); targets name the RCON port"},
	{"bfhardline", "Battlefield Hardline (RCON)", "frostbite", 47200, []int{0}, srcGamedig + " (battlefieldhardline: game 25200 + 22000 = RCON 47200); targets name the RCON port"},
	{"bfvietnam", "Battlefield Vietnam", "gamespy2", 15567, []int{23000 - 15567}, srcGamedig + " (query 23000)"},
	{"blackmesa", "Black Mesa: Deathmatch", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (bmdmserver)"},
	{"bladesymphony", "Blade Symphony", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (bsserver)"},
	{"brainbread", "BrainBread", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (bbserver)"},
	{"brainbread2", "BrainBread 2", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (bb2server)"},
	{"chivalrymedievalwarfare", "Chivalry: Medieval Warfare", "a2s", 7777, []int{2}, srcGamedig + " (cmw: offset 2)" + "; " + srcLGSM + " (cmwserver: port 7777, queryport 7779)"},
	{"cod", "Call of Duty", "quake3", 28960, []int{0}, srcGamedig + "; " + srcQstat + "; " + srcLGSM + " (codserver)"},
	{"cod2", "Call of Duty 2", "quake3", 28960, []int{0}, srcGamedig + "; " + srcLGSM + " (cod2server)"},
	{"cod4", "Call of Duty 4: Modern Warfare", "quake3", 28960, []int{0}, srcGamedig + "; " + srcLGSM + " (cod4server)"},
	{"codenamecure", "Codename CURE", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (ccserver)"},
	{"coduo", "Call of Duty: United Offensive", "quake3", 28960, []int{0}, srcGamedig + "; " + srcLGSM + " (coduoserver)"},
	{"codwaw", "Call of Duty: World at War", "quake3", 28960, []int{0}, srcGamedig + "; " + srcLGSM + " (codwawserver)"},
	{"colonysurvival", "Colony Survival", "a2s", 27004, []int{0}, srcGamedig + " (port 27004)" + "; " + srcLGSM + " (colserver: queryport = port)"},
	{"conanexiles", "Conan Exiles", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)"},
	{"contagion", "Contagion", "a2s", 27015, []int{0}, srcGamedig},
	{"corekeeper", "Core Keeper", "a2s", 1234, []int{1}, srcGamedig + " (port 1234, offset 1)" + "; " + srcLGSM + " (ckserver: -port 1234, queryport = port + 1)"},
	{"creativerse", "Creativerse", "a2s", 26900, []int{1}, srcGamedig + " (port 26900, offset 1)"},
	{"crysis", "Crysis", "gamespy3", 64087, []int{0}, srcGamedig + " (gamespy3 on 64087)"},
	{"crysiswars", "Crysis Wars", "gamespy3", 64100, []int{0}, srcGamedig + " (gamespy3 on 64100)"},
	{"cs16", "Counter-Strike 1.6", "a2s", 27015, []int{0}, srcValve + "; " + srcLGSM + " (csserver)"},
	{"cs2", "Counter-Strike 2", "a2s", 27015, []int{0}, srcValve + "; " + srcLGSM + " (cs2server)"},
	{"cscz", "Counter-Strike: Condition Zero", "a2s", 27015, []int{0}, srcValve + "; " + srcLGSM + " (csczserver)"},
	{"csgo", "Counter-Strike: Global Offensive", "a2s", 27015, []int{0}, srcValve},
	{"css", "Counter-Strike: Source", "a2s", 27015, []int{0}, srcValve},
	{"darkandlight", "Dark and Light", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (dal: game 7777, query 27015)"},
	{"dayofdragons", "Day of Dragons", "a2s", 7777, []int{27015 - 7777}, srcGamedig + "; " + srcLGSM + " (dodrserver: port 7777, queryport 27015)"},
	{"dayofinfamy", "Day of Infamy", "a2s", 27015, []int{0}, srcGamedig + " (doi)" + "; " + srcLGSM + " (doiserver)"},
	{"dayz", "DayZ", "a2s", 2302, []int{27016 - 2302, 1}, srcGamedig + " (dayz: offset 24714 = steamQueryPort 27016); some hosts use game port + 1"},
	{"dayzmod", "DayZ Mod (Arma 2)", "a2s", 2302, []int{1}, srcGamedig + " (query = game port + 1)"},
	{"ddnet", "DDraceNetwork (DDNet)", "teeworlds", 8303, []int{0}, "DDNet default sv_port 8303; DDNet answers Teeworlds 0.6 gie3 (protocols/teeworlds)"},
	{"deathmatchclassic", "Deathmatch Classic", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (dmcserver)"},
	{"deusex", "Deus Ex", "gamespy1", 7791, []int{1}, srcGamedig + " (port 7791, offset 1)"},
	{"devastation", "Devastation", "unreal2", 7777, []int{1}, srcGamedig + " (unreal2, offset 1)"},
	{"dod", "Day of Defeat", "a2s", 27015, []int{0}, srcValve + "; " + srcLGSM + " (dodserver)"},
	{"dods", "Day of Defeat: Source", "a2s", 27015, []int{0}, srcValve},
	{"dontstarvetogether", "Don't Starve Together", "a2s", 10999, []int{27016 - 10999}, srcGamedig + " (dst: game 10999, query 27016)"},
	{"doubleaction", "Double Action: Boogaloo", "a2s", 27015, []int{0}, srcGamedig + " (dab)" + "; " + srcLGSM + " (dabserver)"},
	{"dystopia", "Dystopia", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (dysserver)"},
	{"empiresmod", "Empires Mod", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (emserver)"},
	{"empyrion", "Empyrion - Galactic Survival", "a2s", 30000, []int{1}, srcGamedig + " (egs: port 30000, offset 1)"},
	{"enemyterritory", "Wolfenstein: Enemy Territory", "quake3", 27960, []int{0}, srcQstat + " (27960)" + "; " + srcLGSM + " (wetserver)"},
	{"enshrouded", "Enshrouded", "a2s", 15636, []int{1}, srcGamedig + " (game 15636, query 15637)"},
	{"etlegacy", "ET: Legacy", "quake3", 27960, []int{0}, srcLGSM + " (etlserver: quake3 query on the game port 27960)"},
	{"etqw", "Enemy Territory: Quake Wars", "doom3", 27733, []int{0}, srcGamedig + " (query 27733)"},
	{"eurotrucksimulator2", "Euro Truck Simulator 2", "a2s", 27015, []int{1}, srcGamedig + " (ets2: port 27015, offset 1)" + "; " + "SCS server_config.sii (query_dedicated_port 27016)" + "; " + srcLGSM + " (ets2server queries A2S)"},
	{"exfil", "Exfil", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)"},
	{"farcry", "Far Cry", "ase", 49001, []int{123}, srcGamedig + " (ASE on port 49001 + 123)"},
	{"ffow", "Frontlines: Fuel of War", "ffow", 5476, []int{2}, srcGamedig + " (ffow: game 5476, query + 2)" + "; " + srcQstat + " (fls)"},
	{"fistfuloffrags", "Fistful of Frags", "a2s", 27015, []int{0}, srcGamedig + " (fof)" + "; " + srcLGSM + " (fofserver)"},
	{"fortressforever", "Fortress Forever", "a2s", 27015, []int{0}, srcGamedig},
	{"foundry", "FOUNDRY", "a2s", 27015, []int{0}, srcGamedig},
	{"garrysmod", "Garry's Mod", "a2s", 27015, []int{0}, srcValve + "; " + srcLGSM + " (gmodserver)"},
	{"geyser", "Geyser (Bedrock clients on a Java server)", "bedrock", 19132, []int{0}, "GeyserMC config.yml bedrock.port 19132 (RakNet Unconnected Ping on it)"},
	{"halflife", "Half-Life Deathmatch (GoldSrc)", "a2s", 27015, []int{0}, srcValve + "; " + srcLGSM + " (hldmserver)"},
	{"halo", "Halo: Combat Evolved", "gamespy2", 2302, []int{0}, srcGamedig},
	{"hl2dm", "Half-Life 2: Deathmatch", "a2s", 27015, []int{0}, srcValve},
	{"hll", "Hell Let Loose", "a2s", 27015, []int{0}, srcGamedig + " (hll: A2S on 27015; targets name the query port)"},
	{"holdfast", "Holdfast: Nations At War", "a2s", 20100, []int{27000 - 20100}, "Holdfast wiki, Server Configuration: server_port 20100, steam_query_port 27000"},
	{"homefront", "Homefront", "a2s", 27015, []int{0}, srcGamedig},
	{"humanitz", "HumanitZ", "a2s", 7777, []int{27015 - 7777}, srcLGSM + " (hzserver: -port=7777 -queryport=27015, A2S)"},
	{"hurtworld", "Hurtworld", "a2s", 12871, []int{10}, srcGamedig + " (game 12871, query 12881)" + "; " + srcLGSM + " (hwserver)"},
	{"icarus", "Icarus", "a2s", 17777, []int{27015 - 17777}, "RocketWerkz Icarus dedicated server: game -PORT=17777, Steam query -QueryPort=27015 (host guides citing the official IcarusDedicatedServer wiki); the game port does not answer A2S"},
	{"insurgency", "Insurgency (2014)", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (insserver)"},
	{"insurgencysandstorm", "Insurgency: Sandstorm", "a2s", 27102, []int{27131 - 27102}, "NWI Insurgency: Sandstorm Server Admin Guide (-Port=27102 -QueryPort=27131); LinuxGSM inssserver same"},
	{"iosoccer", "IOSoccer", "a2s", 27015, []int{0}, srcLGSM + " (iosserver: port 27015, A2S)"},
	{"jediacademy", "Star Wars Jedi Knight: Jedi Academy", "quake3", 29070, []int{0}, "shared/protocols spec quake3.md" + "; " + srcQstat},
	{"jedioutcast", "Star Wars Jedi Knight II: Jedi Outcast", "quake3", 28070, []int{0}, "shared/protocols spec quake3.md" + "; " + srcQstat},
	{"justcause2mp", "Just Cause 2: Multiplayer", "gamespy3", 7777, []int{0}, "shared/protocols spec gamespy3.md §8 (JC2-MP answers on the game port); gamedig jc2m port 7777"},
	{"justcause3mp", "Just Cause 3 Multiplayer", "a2s", 4200, []int{1}, srcGamedig + " (jc3m: port 4200, offset 1)"},
	{"killingfloor", "Killing Floor", "unreal2", 7707, []int{1}, srcGamedig + " (killingfloor: port 7707, unreal2 query offset 1)"},
	{"killingfloor2", "Killing Floor 2", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)" + "; " + srcLGSM + " (kf2server)"},
	{"l4d", "Left 4 Dead", "a2s", 27015, []int{0}, srcValve},
	{"l4d2", "Left 4 Dead 2", "a2s", 27015, []int{0}, srcValve},
	{"medievalengineers", "Medieval Engineers", "a2s", 27015, []int{0}, srcGamedig},
	{"minecraft", "Minecraft: Java Edition", "minecraft", 25565, []int{0}, srcGamedig + "; SRV _minecraft._tcp followed for names without a port"},
	{"minecraft_query", "Minecraft: Java Edition, Query (enable-query)", "gamespy4", 25565, []int{0}, "Minecraft server.properties (query.port defaults to server-port 25565)"},
	{"minecraftbedrock", "Minecraft: Bedrock Edition", "bedrock", 19132, []int{0}, "Bedrock Dedicated Server server.properties server-port 19132" + "; " + srcGamedig + " (mbe: port 19132)" + "; " + srcLGSM + " (mcbserver: queryport = port)"},
	{"mohaa", "Medal of Honor: Allied Assault", "gamespy1", 12203, []int{97}, srcGamedig + " (game 12203, query 12300)"},
	{"mohaabreakthrough", "Medal of Honor: Allied Assault Breakthrough", "gamespy1", 12203, []int{97}, srcGamedig + " (mohaab: game 12203, query 12300)"},
	{"mohaaspearhead", "Medal of Honor: Allied Assault Spearhead", "gamespy1", 12203, []int{97}, srcGamedig + " (mohaas: game 12203, query 12300)"},
	{"mohpa", "Medal of Honor: Pacific Assault", "gamespy1", 13203, []int{97}, srcGamedig + " (game 13203, offset 97)"},
	{"mordhau", "Mordhau", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)" + "; " + srcLGSM + " (mhserver)"},
	{"mta", "Multi Theft Auto: San Andreas", "ase", 22003, []int{123}, "shared/protocols spec ase.md (ASE on game port + 123)" + "; " + srcLGSM + " (mtaserver)"},
	{"mumble_gtmurmur", "Mumble with the GTmurmur plugin (gamedig mumble)", "mumble", 64738, []int{0}, srcGamedig + " (mumble: voice port 64738, GTmurmur query port 27800; gamedig's mumbleping is the UDP ping, our mumble module)"},
	{"mythofempires", "Myth of Empires", "a2s", 12888, []int{0}, srcGamedig + " (moe: query 12888; targets name the query port)"},
	{"naturalselection", "Natural Selection", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (nsserver)"},
	{"naturalselection2", "Natural Selection 2", "a2s", 27015, []int{1}, srcGamedig + " (ns2: query offset 1)" + "; " + srcLGSM + " (ns2server: port 27015)"},
	{"nexuiz", "Nexuiz", "darkplaces", 26000, []int{0}, srcGamedig + " (query 26000); DarkPlaces getstatus"},
	{"nmrih", "No More Room in Hell", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (nmrihserver)"},
	{"novalife", "Nova-Life: Amboise", "a2s", 27015, []int{0}, srcGamedig + " (nla: query 27015)"},
	{"nucleardawn", "Nuclear Dawn", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (ndserver)"},
	{"onset", "Onset", "a2s", 7777, []int{-1}, srcGamedig + " (port 7777, offset -1)" + "; " + srcLGSM + " (onsetserver: queryport = port - 1)"},
	{"openarena", "OpenArena", "quake3", 27960, []int{0}, srcGamedig},
	{"openmp", "Grand Theft Auto: San Andreas open.mp (gamedig gtasao)", "samp", 7777, []int{0}, srcGamedig + " (gtasao: port 7777)" + "; open.mp config.json network.port 7777, query on the game port"},
	{"operationflashpoint", "Operation Flashpoint: Cold War Crisis / Resistance", "gamespy1", 2302, []int{1}, srcGamedig + " (ofcwc, ofr: port 2302, offset 1)"},
	{"operationharshdoorstop", "Operation: Harsh Doorstop", "a2s", 7777, []int{27005 - 7777}, srcGamedig + " (ohd: game 7777, query 27005)" + "; " + srcLGSM + " (ohdserver)"},
	{"opposingforce", "Half-Life: Opposing Force", "a2s", 27015, []int{0}, srcGamedig + " (hlof)" + "; " + srcLGSM + " (opforserver)"},
	{"painkiller", "Painkiller", "ase", 3455, []int{123}, srcGamedig + " (ASE on port 3455 + 123)"},
	{"palworld", "Palworld (REST API)", "palworld", 8212, []int{0}, "Pocketpair REST API docs (RESTAPIPort 8212/TCP, basic auth admin:AdminPassword); UDP 27015 is open but does not answer A2S (gamedig issue 491); gamedig 5.3 and LinuxGSM query the REST API"},
	{"piratesvikingsknights2", "Pirates, Vikings, and Knights II", "a2s", 27015, []int{0}, srcGamedig + " (pvak2)" + "; " + srcLGSM + " (pvkiiserver)"},
	{"pixark", "PixARK", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (game 7777, query 27015)"},
	{"postal2", "Postal 2", "gamespy1", 7777, []int{1}, srcGamedig + " (port 7777, offset 1)"},
	{"postscriptum", "Post Scriptum / Squad 44", "a2s", 10027, []int{10}, srcLGSM + " (squad44server: -Port=10027 -QueryPort=10037, A2S)" + "; " + srcGamedig + " (postscriptum: query 10037; players reply empty, gamedig issue 421)"},
	{"prey", "Prey (2006)", "doom3", 27719, []int{0}, srcGamedig},
	{"primalcarnage", "Primal Carnage: Extinction", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (pce: game 7777, query 27015)"},
	{"projectcars", "Project CARS", "a2s", 27015, []int{1}, srcGamedig + " (port 27015, offset 1)"},
	{"projectcars2", "Project CARS 2", "a2s", 27015, []int{1}, srcGamedig + " (port 27015, offset 1)"},
	{"projectreality", "Project Reality: Battlefield 2", "gamespy3", 16567, []int{29900 - 16567}, srcGamedig + " (prb2: game 16567, query 29900)"},
	{"projectzomboid", "Project Zomboid", "a2s", 16261, []int{0}, srcGamedig + "; " + srcLGSM + " (pzserver: queryport = DefaultPort 16261)"},
	{"quake", "Quake (QuakeWorld: mvdsv, ezQuake servers)", "quakeworld", 27500, []int{0}, srcQstat + " (QW 27500)" + "; " + srcLGSM + " (qwserver)"},
	{"quake4", "Quake 4", "doom3", 28004, []int{0}, srcGamedig + "; " + srcLGSM + " (q4server)"},
	{"quakelive", "Quake Live", "a2s", 27960, []int{0}, srcGamedig + " (Quake Live answers A2S)" + "; " + srcLGSM + " (qlserver)"},
	{"redeclipse", "Red Eclipse", "cube2", 28801, []int{1}, srcQstat + " (cube2 family: info on game port + 1)"},
	{"redm", "RedM (Red Dead Redemption 2)", "fivem", 30120, []int{0}, srcGamedig + " (rdr2r: fivem protocol, port 30120)"},
	{"redorchestra", "Red Orchestra: Ostfront 41-45", "unreal2", 7757, []int{1}, srcLGSM + " (roserver: base port 7757, unreal2 query port = port + 1)" + "; " + srcGamedig + " (redorchestra: unreal2, offset 1)"},
	{"redorchestra2", "Red Orchestra 2: Heroes of Stalingrad", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (redorchestra2: game 7777, query 27015)"},
	{"ricochet", "Ricochet", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (ricochetserver)"},
	{"risingstorm2", "Rising Storm 2: Vietnam", "a2s", 7777, []int{27015 - 7777}, srcGamedig + " (rs2v: A2S on 27015; Tripwire UE3 servers default to game port 7777 as redorchestra2 and killingfloor2)"},
	{"risingworld", "Rising World", "a2s", 4255, []int{-1}, srcGamedig + " (port 4255, offset -1)" + "; " + srcLGSM + " (rwserver: queryport = port - 1)"},
	{"riskofrain2", "Risk of Rain 2", "a2s", 27015, []int{1}, srcGamedig + " (ror2: port 27015, offset 1)"},
	{"rtcw", "Return to Castle Wolfenstein", "quake3", 27960, []int{0}, srcGamedig + "; " + srcLGSM + " (rtcwserver)"},
	{"rune", "Rune", "gamespy1", 7777, []int{1}, srcGamedig + " (port 7777, offset 1)"},
	{"rust", "Rust", "a2s", 28015, []int{1, 2, -1}, "Facepunch wiki 'Creating a server' (Feb 2023: server.queryport must differ from server.port, default game port + 1); LinuxGSM rustserver uses 28017 (+2); hosts that swap them query on game port - 1; gamedig's 'query on the game port' predates Feb 2023"},
	{"samp", "Grand Theft Auto: San Andreas Multiplayer (SA-MP)", "samp", 7777, []int{0}, srcGamedig + " (samp: port 7777)" + "; SA-MP server.cfg port 7777, query on the game port"},
	{"sauerbraten", "Cube 2: Sauerbraten", "cube2", 28785, []int{1}, srcQstat + " (query = game port + 1)"},
	{"serioussam", "Serious Sam: The First / Second Encounter", "gamespy1", 25600, []int{1}, srcGamedig + " (serioussam, sstse: port 25600, offset 1)"},
	{"shootmania", "ShootMania", "nadeo", 2350, []int{5000 - 2350}, srcGamedig + " (nadeo: game 2350, XML-RPC 5000)" + "; " + srcQstat + " (tm: 5000)"},
	{"sof", "Soldier of Fortune", "gamespy1", 28910, []int{1}, srcGamedig + " (port 28910, offset 1)"},
	{"sof2", "Soldier of Fortune II", "quake3", 20100, []int{0}, srcGamedig + "; " + srcLGSM + " (sof2server)"},
	{"soldat", "Soldat (admin password needed)", "soldat", 23073, []int{0}, srcGamedig + " (soldat: port 23073; gamedig reads the file server on +10)" + "; Soldat server.ini net_port 23073, the admin connection on the game port (server/Rcon.pas)"},
	{"sonsoftheforest", "Sons Of The Forest", "a2s", 8766, []int{27016 - 8766}, srcGamedig + " (sotf: game 8766, query 27016)"},
	{"soulmask", "Soulmask", "a2s", 8777, []int{27015 - 8777}, srcGamedig + " (game 8777, query 27015)" + "; " + srcLGSM + " (smserver)"},
	{"spaceengineers", "Space Engineers", "a2s", 27016, []int{0}, "SpaceEngineers-Dedicated.cfg default ServerPort 27016, A2S answered there (gamedig issue 183; xPaw PHP-Source-Query README: 27016); gamedig's 27015 is stale"},
	{"stalker", "S.T.A.L.K.E.R.", "gamespy3", 5445, []int{2}, srcGamedig + " (port 5445, offset 2)"},
	{"starbound", "Starbound", "a2s", 21025, []int{0}, srcGamedig},
	{"starmade", "StarMade", "starmade", 4242, []int{0}, srcGamedig + " (starmade: port 4242)" + "; " + srcQstat + " (starmade: 4242)"},
	{"stvef", "Star Trek: Voyager - Elite Force", "quake3", 27960, []int{0}, srcGamedig + " (query 27960)"},
	{"survivethenights", "Survive the Nights", "a2s", 7950, []int{1}, srcGamedig + " (stn: port 7950, offset 1)" + "; " + srcLGSM + " (stnserver: queryport = port + 1)"},
	{"svencoop", "Sven Co-op", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (svenserver)"},
	{"swat4", "SWAT 4", "gamespy2", 10480, []int{2}, srcGamedig + " (offset 2)"},
	{"synergy", "Synergy", "a2s", 27015, []int{0}, srcGamedig},
	{"tacticalops", "Tactical Ops: Assault on Terror", "gamespy1", 7777, []int{1}, srcGamedig + " (port 7777, offset 1)"},
	{"teamfortressclassic", "Team Fortress Classic", "a2s", 27015, []int{0}, srcGamedig + " (tfc)" + "; " + srcLGSM + " (tfcserver)"},
	{"teamspeak2", "TeamSpeak 2", "teamspeak2", 8767, []int{0}, srcGamedig + " (teamspeak2: voice port 8767, teamspeakQueryPort 51234)" + "; " + srcQstat + " (ts2: query 51234)"},
	{"terraria", "Terraria (TShock REST API)", "terraria", 7878, []int{0}, "TShock REST API (RestApiPort 7878, token required); gamedig terrariatshock queries the same REST status"},
	{"tf2", "Team Fortress 2", "a2s", 27015, []int{0}, srcValve + "; " + srcLGSM + " (tf2server)"},
	{"theforest", "The Forest", "a2s", 27015, []int{1}, srcGamedig + " (query = game port + 1)"},
	{"thefront", "The Front", "a2s", 5001, []int{27015 - 5001}, srcLGSM + " (tfserver: -Port=5001 -QueryPort=27015, A2S)" + "; " + srcGamedig + " (thefront: query 27015)"},
	{"theisle", "The Isle Evrima (EOS session)", "eos", 7777, []int{0}, "gamedig theisleevrima protocol (EOS matchmaking, game port 7777); LinuxGSM tiserver port 7777 with no Steam query; Legacy's A2S (7707 + 1) went with Legacy"},
	{"thelongdark", "The Long Dark (Sky Co-op)", "skycoop", 26950, []int{0}, "shared/protocols spec skycoop.md"},
	{"theship", "The Ship", "a2s", 27015, []int{0}, srcGamedig},
	{"thespecialists", "The Specialists", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (tsserver)"},
	{"towerunite", "Tower Unite", "a2s", 7777, []int{27015 - 7777}, srcLGSM + " (tuserver: -Port=7777 -QueryPort=27015)" + "; " + srcGamedig + " (towerunite: query 27015)"},
	{"trackmania2", "TrackMania 2", "nadeo", 2350, []int{5000 - 2350}, srcGamedig + " (nadeo: game 2350, XML-RPC 5000)" + "; " + srcQstat + " (tm: 5000)"},
	{"trackmaniaforever", "TrackMania Forever (Nations, United)", "nadeo", 2350, []int{5000 - 2350}, srcGamedig + " (nadeo: game 2350, XML-RPC 5000)" + "; " + srcQstat + " (tm: 5000)"},
	{"tremulous", "Tremulous", "quake3", 30720, []int{0}, srcGamedig + " (query 30720)"},
	{"tribesvengeance", "Tribes: Vengeance", "gamespy2", 7777, []int{1}, srcGamedig + " (port 7777, offset 1)"},
	{"unreal", "Unreal", "gamespy1", 7777, []int{1}, srcGamedig + " (port 7777, offset 1)"},
	{"unreal2xmp", "Unreal 2: The Awakening - XMP", "unreal2", 7777, []int{1}, srcGamedig + " (u2tax: unreal2, offset 1)"},
	{"unturned", "Unturned", "a2s", 27015, []int{1, 0}, srcGamedig + " (query = game port + 1)" + "; " + srcLGSM + " (untserver: queryport = port)"},
	{"urbanterror", "Urban Terror", "quake3", 27960, []int{0}, srcGamedig},
	{"ut2003", "Unreal Tournament 2003", "unreal2", 7757, []int{1}, srcGamedig + " (unrealtournament2003: port 7757, offset 1)"},
	{"ut2004", "Unreal Tournament 2004", "unreal2", 7777, []int{1}, srcGamedig + " (unrealtournament2004: port 7777, offset 1)" + "; " + srcLGSM + " (ut2k4server: queryport = port + 1)"},
	{"ut3", "Unreal Tournament 3", "gamespy3", 7777, []int{6500 - 7777}, srcGamedig + " (game 7777, query 6500)" + "; " + srcLGSM + " (ut3server)"},
	{"ut99", "Unreal Tournament (1999)", "gamespy1", 7777, []int{1}, srcGamedig + " (query = game port + 1)" + "; " + srcLGSM + " (ut99server)"},
	{"valheim", "Valheim", "a2s", 2456, []int{1}, srcGamedig + " (query = game port + 1)" + "; " + srcLGSM + " (vhserver); crossplay (PlayFab) servers do not answer A2S"},
	{"vampireslayer", "Vampire Slayer", "a2s", 27015, []int{0}, srcGamedig + "; " + srcLGSM + " (vsserver)"},
	{"vcmp", "Vice City Multiplayer (VC:MP 0.4)", "samp", 8192, []int{0}, srcGamedig + " (vcmp: port 8192)" + "; VC:MP server.cfg port 8192, query on the game port"},
	{"ventrilo", "Ventrilo", "ventrilo", 3784, []int{0}, srcGamedig + " (ventrilo: port 3784)" + "; " + srcQstat + " (vent: 3784)"},
	{"vrising", "V Rising", "a2s", 9876, []int{1}, "Stunlock's VRising dedicated server instructions, ServerHostSettings.json Port 9876, QueryPort 9877; gamedig's 27015 with offsets 1 and 15 is a host layout, not the default"},
	{"warfork", "Warfork", "quake3", 44400, []int{0}, srcGamedig + " (query 44400)" + "; " + srcLGSM + " (wfserver)"},
	{"warsow", "Warsow", "quake3", 44400, []int{0}, srcGamedig},
	{"wheeloftime", "The Wheel of Time", "gamespy1", 7777, []int{1}, srcGamedig + " (wot: port 7777, offset 1)"},
	{"wurmunlimited", "Wurm Unlimited", "a2s", 3724, []int{27016 - 3724}, srcGamedig + " (game 3724, query 27016)" + "; " + srcLGSM + " (wurmserver)"},
	{"xonotic", "Xonotic", "darkplaces", 26000, []int{0}, srcGamedig + "; DarkPlaces getstatus"},
	{"zombiemaster", "Zombie Master: Reborn", "a2s", 27015, []int{0}, srcGamedig + " (zombiemaster)" + "; " + srcLGSM + " (zmrserver)"},
	{"zombiepanic", "Zombie Panic! Source", "a2s", 27015, []int{0}, srcGamedig + " (zps)" + "; " + srcLGSM + " (zpsserver)"},
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
