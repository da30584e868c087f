package doom3

import "testing"

// The Wolfenstein record keeps Doom 3's rate and adds ET:QW's clan-tag fields.
func TestWolfRecords(t *testing.T) {
	rep, err := decode(vector(t, "wolf_players"))
	if err != nil || rep.PlayersErr != nil {
		t.Fatal(err, rep.PlayersErr)
	}
	want := []player{
		{ID: 0, Ping: 45, Rate: 25000, HasRate: true, Name: "Blazko", Clan: "[OSA]", HasBot: true},
		{ID: 3, Name: "Bot Hans", HasRate: true, ClanPos: 1, Bot: true, HasBot: true},
	}
	if len(rep.Players) != len(want) {
		t.Fatalf("players %+v", rep.Players)
	}
	for i, p := range rep.Players {
		if p != want[i] {
			t.Errorf("player %d = %+v, want %+v", i, p, want[i])
		}
	}
	rep, err = decode(vector(t, "wolf_hint_term32"))
	if err != nil || len(rep.Players) != 1 || rep.Players[0].ClanPos != 1 || rep.Players[0].Clan != "OSA" || rep.Players[0].Rate != 16384 {
		t.Errorf("hinted reply: %v %+v", err, rep.Players)
	}
}
