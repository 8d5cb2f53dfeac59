package recommend

import (
	"math"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// nearRadiusKM is the distance at which the near-users bonus reaches zero;
// the bonus falls linearly from nearBonus at 0 km.
const (
	nearRadiusKM = 2000.0
	nearBonus    = 0.15
)

// place is one resolved near-users entry: a country, or a point.
type place struct {
	country  string
	lat, lon float64
	point    bool
}

// resolveNear reads near-users entries: an ISO country code, a region code
// (its city's coordinates) or a city where a catalog region is.
func (e *Engine) resolveNear(list []string) ([]place, error) {
	var out []place
	regions := e.Catalog.Regions()
	for _, s := range places(list) {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		found := false
		for _, rg := range regions {
			if rg.HasCoords && (strings.EqualFold(rg.Code, s) || strings.EqualFold(rg.Key(), s) || strings.EqualFold(rg.City, s)) {
				out = append(out, place{lat: rg.Lat, lon: rg.Lon, point: true})
				found = true
				break
			}
		}
		if found {
			continue
		}
		// A state or area named in a region's name: "Virginia" in
		// "US East (N. Virginia)", "弗吉尼亚" in "美国东部（弗吉尼亚北部）".
		if len(s) > 2 {
			for _, rg := range regions {
				if rg.HasCoords && (containsWord(rg.NameEN, s) || strings.Contains(rg.NameZH, s)) {
					out = append(out, place{lat: rg.Lat, lon: rg.Lon, point: true})
					found = true
					break
				}
			}
			if found {
				continue
			}
		}
		if len(s) == 2 {
			for _, rg := range regions {
				if strings.EqualFold(rg.Country, s) {
					out = append(out, place{country: strings.ToUpper(s)})
					found = true
					break
				}
			}
		}
		if !found {
			var cities []string
			seen := map[string]bool{}
			for _, rg := range regions {
				if rg.City != "" && !seen[rg.City] {
					seen[rg.City] = true
					cities = append(cities, rg.City)
				}
			}
			sort.Strings(cities)
			return nil, inputErr("near_users", "%q is not a country code (CN, US ...), a region code, a state or area named in a region's name (Virginia) or a city with a catalog region (%s)", s, strings.Join(cities, ", "))
		}
	}
	return out, nil
}

// near scores a region against the resolved places: the distance to the
// nearest point (km; -1 when only countries were given) and the bonus.
func (e *Engine) near(places []place, rg *catalog.Region) (float64, float64) {
	best, bonus := -1.0, 0.0
	for _, p := range places {
		switch {
		case !p.point:
			if strings.EqualFold(p.country, rg.Country) {
				bonus = math.Max(bonus, nearBonus)
			}
		case rg.HasCoords:
			d := haversineKM(p.lat, p.lon, rg.Lat, rg.Lon)
			if best < 0 || d < best {
				best = d
			}
			bonus = math.Max(bonus, nearBonus*math.Max(0, 1-d/nearRadiusKM))
		}
	}
	return best, bonus
}

// haversineKM is the great-circle distance between two points.
func haversineKM(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dl := (lat2 - lat1) * rad
	dn := (lon2 - lon1) * rad
	a := math.Sin(dl/2)*math.Sin(dl/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dn/2)*math.Sin(dn/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(a)))
}

// containsWord reports whether name contains word as a whole word, case
// aside ("Virginia" in "US East (N. Virginia)", not "Virgin").
func containsWord(name, word string) bool {
	n, w := strings.ToLower(name), strings.ToLower(word)
	for i := 0; ; {
		j := strings.Index(n[i:], w)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(w)
		if (a == 0 || !isLetter(n[a-1])) && (b == len(n) || !isLetter(n[b])) {
			return true
		}
		i = a + 1
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
