import json
num={"type":"number"}
numN={"type":"number","nullable":True}
s={"type":"string"}
src={"type":"object","required":["kind","ref","as_of"],"properties":{"kind":{"type":"string","enum":["official-api","official-doc","third-party","seed-claim","user","estimate"]},"ref":s,
 "as_of":{"type":"string","nullable":True,"description":"YYYY-MM-DD, the date the source shows or is attributed to; null when the source is undated"},
 "read_on":{"type":"string","description":"YYYY-MM-DD, the day an undated source was read; present only when undated is true"},
 "undated":{"type":"boolean","description":"true when the source shows no date (as_of is null): the figure counts as not fresh; omitted otherwise"}}}
fx={"type":"object","required":["base","rates"],"properties":{"base":s,"rates":{"type":"object","additionalProperties":{"type":"object","required":["per_usd","source","as_of"],"properties":{"per_usd":num,"source":s,"as_of":s}}}}}
gpuref={"type":"object","required":["model","count","memory_gb","total_memory_gb"],"properties":{"model":s,"count":num,"memory_gb":num,"total_memory_gb":num}}
offer={"type":"object","required":["id","provider","instance_type","region","billing","gpu","price","source"],"properties":{
 "id":s,"provider":s,"instance_type":s,"region":s,"country":s,"residency":s,"billing":s,"os":{"type":"string","enum":["linux","windows"],"description":"The operating system the price is for: linux (the provider's default image) or windows (the Windows licence included; the id ends in /windows)"},"gpu":{"$ref":"#/components/schemas/GPURef"},"vcpu":num,"memory_gib":num,
 "price":{"type":"object","required":["hourly","upfront","monthly","effective_hourly","per_gpu_hourly","currency","original_currency"],"properties":{k:num for k in ["hourly","upfront","monthly","effective_hourly","per_gpu_hourly"]}|{"currency":s,"original_currency":s}},
 "source":{"$ref":"#/components/schemas/Source"},
 "marketplace":{"type":"boolean","description":"true when the provider is a marketplace of independent hosts (Vast.ai): the price is one host's asking price in a dated snapshot, not a list price, and there is no SLA; omitted otherwise"},
 "stock":{"type":"object","required":["state","seen_at"],"description":"What the provider's own API last said about capacity for this offer (Lambda's regions with capacity, RunPod's stock status, a Vast.ai offer existing), and when; omitted when no live import read it. An observation, not a reservation.","properties":{"state":{"type":"string","enum":["available","low","none"]},"seen_at":{"type":"string","format":"date-time"}}}}}
offers={"type":"object","required":["schema","currency","fx","total","offers"],"properties":{"schema":{"type":"string","enum":["gpuscout/offers@v1"]},"currency":s,"fx":{"$ref":"#/components/schemas/FX"},"total":{"type":"integer","minimum":0},"offers":{"type":"array","items":{"$ref":"#/components/schemas/Offer"}},
 "offset":{"type":"integer","minimum":0,"description":"Matches skipped before these (the offset parameter); omitted when 0."},
 "next":{"type":"string","description":"URL of the next page of matches (the same query with offset moved on) when this answer stopped at its limit with more left; omitted on the last page."},
 "warnings":{"type":"array","description":"Stored records left out because their data is unusable (a currency without an exchange rate, a figure failing validation); absent when there are none. The other offers are answered as usual.","items":{"$ref":"#/components/schemas/Warning"}}}}
warning={"type":"object","required":["kind","record","reason","detail","message"],"properties":{"kind":{"type":"string","enum":["offer","interruption-band"]},"record":{"type":"string","description":"The offer ID, or provider/instance_type/region of a band."},"reason":{"type":"string","enum":["unknown-currency","invalid"]},"detail":{"type":"string","description":"The currency code (unknown-currency) or the validation message (invalid, in English)."},"message":{"type":"string","description":"The warning in the request's language."}}}
gpu={"type":"object","required":["id","vendor","family","architecture","memory_gb","source"],"properties":{"id":s,"vendor":s,"family":s,"variant":s,"architecture":s,"memory_gb":num,"memory_type":s,
 "memory_bandwidth_gbs":numN,"fp32_tflops":numN,"tf32_tflops":numN,"fp16_tflops":numN,"fp8_tflops":numN,"int8_tops":numN,"interconnect":s,"interconnect_gbs":numN,"tdp_w":numN,"launch_year":{"type":"integer"},"aliases":{"type":"array","items":s},"source":{"$ref":"#/components/schemas/Source"},
 "ml_support":{"type":"object","required":["stack","source"],"description":"The vendor's ML software support: the CUDA compute capability (NVIDIA's CUDA GPUs page), the ROCm LLVM target (AMD's ROCm supported-GPU list), or none; absent when the catalog does not say","properties":{"stack":{"type":"string","enum":["cuda","rocm","none"]},"detail":s,"source":s,"read_on":s}}}}
gpus={"type":"object","required":["schema","gpus"],"properties":{"schema":{"type":"string","enum":["gpuscout/gpus@v1"]},"gpus":{"type":"array","items":{"$ref":"#/components/schemas/GPU"}}}}
inst={"type":"object","required":["id","provider","instance_type","gpu","status","source"],"properties":{"id":s,"provider":s,"instance_type":s,"family":s,"gpu":{"$ref":"#/components/schemas/GPURef"},"vcpu":num,"memory_gib":num,"interconnect":s,"network_gbps":numN,"rdma":s,"local_storage":s,"status":s,"source":{"$ref":"#/components/schemas/Source"}}}
insts={"type":"object","required":["schema","instances"],"properties":{"schema":{"type":"string","enum":["gpuscout/instances@v1"]},"instances":{"type":"array","items":{"$ref":"#/components/schemas/Instance"}}}}
stats={"type":"object","required":["schema","providers","regions","gpus","instance_types","offers"],"properties":{"schema":{"type":"string","enum":["gpuscout/catalog-stats@v1"]},"providers":{"type":"integer"},"regions":{"type":"integer"},"gpus":{"type":"integer"},"instance_types":{"type":"integer"},"offers":{"type":"integer"},"claims":{"type":"integer"},
 "by_provider":{"type":"object","additionalProperties":{"type":"object","properties":{"instance_types":{"type":"integer"},"offers":{"type":"integer"},"regions":{"type":"integer"},"billing":{"type":"array","items":s},
  "offers_by_billing":{"type":"object","additionalProperties":{"type":"integer"}},"gaps_by_billing":{"type":"object","additionalProperties":{"type":"integer"}},
  "median_age_days":{"type":"number","description":"median age of the provider's dated offer prices, in days"},"fresh_share":{"type":"number","description":"share (0-1) of the provider's offers priced within fresh_months (undated offers count as not fresh)"},
  "undated_offers":{"type":"integer","description":"the provider's offers whose source shows no date"}}}},
 "spot_coverage":{"type":"object","properties":{"offers":{"type":"integer"},"with_on_demand_sibling":{"type":"integer"},"published_band":{"type":"integer"},"provider_prior":{"type":"integer"},"provider_prior_with_rate":{"type":"integer"},"none":{"type":"integer"},"covered_share":{"type":"number"}}},
 "billing_gaps":{"type":"integer"},
 "fresh_months":{"type":"integer"},"fresh_share":{"type":"number","description":"share (0-1) of all offers priced within fresh_months of today; undated offers count as not fresh"},"median_age_days":{"type":"number","description":"median age of the dated offers' prices, in days (undated offers are left out)"},
 "undated_offers":{"type":"integer","description":"offers whose source shows no date (as_of null): not fresh, outside the median age and the as-of span"},
 "public_price_files":{"type":"object","description":"freshness of the offers of the providers that publish a public price file","properties":{"offers":{"type":"integer"},"fresh":{"type":"integer","description":"offers priced within fresh_months"},"undated":{"type":"integer","description":"offers whose source shows no date (counted as not fresh)"},"fresh_share":{"type":"number"},"without":{"type":"array","items":{"type":"string"},"description":"providers with offers that publish no public price file (their prices need the user's own credentials to refresh)"}}}}}
sources={"type":"object","required":["schema","sources"],"properties":{"schema":{"type":"string","enum":["gpuscout/catalog-sources@v1"]},"sources":{"type":"array","items":{"type":"object","required":["kind","ref","records","oldest_as_of","newest_as_of"],"properties":{"kind":s,"ref":s,"records":{"type":"integer"},"oldest_as_of":{"type":"string","description":"oldest as-of date of the citing records; empty when every one is undated"},"newest_as_of":s,
 "undated":{"type":"integer","description":"citing records whose source shows no date; omitted when none"},"read_on":{"type":"string","description":"the latest day an undated citing record was read; omitted when none"}}}}}}
month={"type":"object","required":["month","amount"],"properties":{"month":{"type":"integer","minimum":1},"amount":num,"date":s}}
comp={"type":"object","required":["name","unit","quantity","unit_price","total","source"],"properties":{"name":s,"unit":s,"quantity":num,"unit_price":{"type":"object","required":["amount","currency"],"properties":{"amount":num,"currency":s}},"monthly":num,"total":num,"after_horizon":num,"source":{"$ref":"#/components/schemas/Source"},"note":s}}
be={"type":"object","required":["kind","plan","found","text"],"properties":{"kind":s,"plan":s,"versus":s,"value":num,"found":{"type":"boolean"},"text":s}}
cost={"type":"object","required":["currency","components","monthly","total"],"properties":{"currency":s,"label":s,"gpus":num,"components":{"type":"array","items":{"$ref":"#/components/schemas/CostComponent"}},"monthly":{"type":"array","items":{"$ref":"#/components/schemas/MonthAmount"}},"total":num,"after_horizon":num,"effective_per_gpu_hour":num,"effective_per_used_gpu_hour":num}}
tco={"type":"object","required":["schema","currency","months","plans","cheapest","break_even"],"properties":{"schema":{"type":"string","enum":["gpuscout/tco@v1"]},"currency":s,"months":{"type":"integer"},"fx":{"$ref":"#/components/schemas/FX"},"ranked_by":s,"cheapest":s,
 "plans":{"type":"array","minItems":1,"items":{"type":"object","required":["name","total","after_horizon","gpus","monthly","parts"],"properties":{"name":s,"total":num,"after_horizon":num,"gpus":num,"effective_per_gpu_hour":num,"effective_per_used_gpu_hour":num,"monthly":{"type":"array","items":{"$ref":"#/components/schemas/MonthAmount"}},"parts":{"type":"array","items":{"$ref":"#/components/schemas/Cost"}}}}},
 "break_even":{"type":"array","items":{"$ref":"#/components/schemas/BreakEven"}}}}
plan={"type":"object","required":["rank","offer","provider","instance_type","count","gpus","gpu","billing","region","cost","score","pareto","reasons","risks"],"properties":{"rank":{"type":"integer"},"offer":s,"provider":s,"instance_type":s,"count":{"type":"integer"},"gpus":{"type":"integer"},"gpu":s,"billing":s,"os":{"type":"string","enum":["linux","windows"],"description":"The operating system the plan's price is for: linux, or windows (a Windows rate, the licence included; the offer ID ends in /windows)"},"price_lower_bound":{"type":"boolean","description":"True when a Windows job is priced at the offer's Linux rate (the catalog has no Windows rate for it): the cost is then a lower bound"},"region":s,
 "time":{"type":"object","required":["hours","low","high"],"properties":{"hours":num,"low":num,"high":num}},
 "cost":{"type":"object","required":["total","currency"],"properties":{"total":num,"currency":s,"per_gpu_hour":num,"components":{"type":"array","items":{"$ref":"#/components/schemas/CostComponent"}}}},
 "confidence":s,"deadline_miss_probability":num,"score":num,"pareto":{"type":"boolean"},"reasons":{"type":"array","items":s},"risks":{"type":"array","items":s}}}
rec={"type":"object","required":["schema","currency","plans","pareto","rejected","feasible","notes"],"properties":{"schema":{"type":"string","enum":["gpuscout/recommendation@v1"]},"requirements":{"type":"object"},"currency":s,
 "plans":{"type":"array","items":{"$ref":"#/components/schemas/Plan"}},"pareto":{"type":"array","items":{"$ref":"#/components/schemas/Plan"}},
 "rejected":{"type":"array","items":{"type":"object","required":["offer","stage","reason"],"properties":{"offer":s,"stage":s,"reason":s}}},
 "rejected_by_stage":{"type":"object","additionalProperties":{"type":"integer"}},"feasible":{"type":"integer"},"notes":{"type":"array","items":s},
 "data_as_of":{"type":"object","properties":{"oldest":s,"newest":s}}}}
err={"type":"object","required":["error"],"properties":{"error":{"type":"object","required":["code","message"],"properties":{"code":{"type":"string","enum":["bad_request","not_found","no_plan","too_large","internal","data_error"]},"message":s,"field":s,"hint":s}}}}
def q(name,desc,schema=None,explode=True):
    p={"name":name,"in":"query","required":False,"description":desc,"schema":schema or s}
    return p
lst={"type":"array","items":s}
def listq(name,desc): 
    return {"name":name,"in":"query","required":False,"description":desc+" Repeat the parameter or separate values with commas.","schema":lst,"style":"form","explode":True}
cur=q("currency","Currency for every amount (USD, CNY, EUR, GBP, JPY ...). Default USD.")
def resp(ref,desc):
    return {"description":desc,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/"+ref}}}}
errs={"400":resp("Error","Invalid parameter; error.field names it."),"404":resp("Error","Unknown offer or endpoint."),"500":resp("Error","The server's own data cannot answer (data_error: a stored figure that cannot be priced); never the client's fault.")}
spec={"openapi":"3.0.3","info":{"title":"gpuscout API","version":"1.0.0","description":"GPU cloud offers, prices under every billing model, total cost of ownership and ranked plans, from gpuscout's catalog. Every figure carries its source and as-of date. Responses are the same documents as the CLI's -o json. Errors are {\"error\": {code, message, field, hint}}."},
 "servers":[{"url":"/"}],
 "paths":{
  "/api/v1/offers":{"get":{"operationId":"listOffers","summary":"Search offers (instance type × region × billing model) with effective hourly prices","parameters":[
    listq("gpu","GPU models or families (A100, H100-SXM-80GB, T4)."),listq("provider","Providers: aws, azure, gcp, alibaba, tencent, oci, lambda."),listq("region","Region codes."),listq("country","ISO country codes."),listq("residency","Data-residency zones (cn-mainland, eu, us ...)."),listq("billing","Billing models or families (on-demand, spot, reserved, savings-plan, committed, subscription, reserved-1y-no-upfront ...)."),
    q("available","Keep only offers the provider's own API last reported capacity for (stock available or low; a live import of Lambda, RunPod or Vast.ai).",{"type":"boolean"}),
    q("os","Operating system the prices are for: linux (the default) or windows (licence-included Windows rates, where an import carries them). One response never mixes them.",{"type":"string","enum":["linux","windows"]}),
    q("min_gpus","Minimum GPUs per instance.",num),q("min_vram","Minimum memory per GPU, GB.",num),q("max_price","Maximum price in currency per the unit of per.",num),
    q("per","Price unit for min_price, max_price and sorting (day and year scale the instance-hour price).",{"type":"string","enum":["instance-hour","gpu-hour","day","month","year"]}),
    q("min_price","Minimum price in currency per the unit of per.",num),q("interconnect","GPU link contains this (nvswitch, nvlink, pcie).",s),q("rdma","Only instances with an RDMA fabric (EFA, InfiniBand, RoCE, eRDMA).",{"type":"boolean"}),
    q("order","Order by a column instead of sort.",{"type":"string","enum":["provider","instance","gpu","gpus","vram","vcpu","ram","region","billing","price","per_gpu","upfront","as_of","network","interconnect","rdma","source"]}),q("desc","Reverse the order.",{"type":"boolean"}),q("sort","Order.",{"type":"string","enum":["price","gpu-price","vram","fp16-tflops-per-dollar"]}),
    q("limit","Return at most this many offers (default 100). One response carries at most 5,000: 0, or any larger value, asks for 5,000; next gives the URL of the rest.",{"type":"integer","minimum":0}),q("offset","Skip this many matches first (pagination; default 0). next holds the URL with offset moved on.",{"type":"integer","minimum":0}),q("per_provider","Keep the first N offers of each provider.",{"type":"integer","minimum":0}),
    q("cheapest_region","Each instance type and billing model once, in its cheapest region.",{"type":"boolean"}),q("include_retired","Include retired instance types.",{"type":"boolean"}),
    q("max_age_months","Leave out prices dated more than this many months ago (0 = any age, the default here; the web explorer defaults to 12). Applied before cheapest_region chooses a region.",{"type":"integer","minimum":0,"maximum":1200}),
    q("hide_undated","Leave out prices whose source shows no date.",{"type":"boolean"}),
    q("dated_first","In the default order (no order), list prices whose source shows a date before undated ones (the web explorer's default).",{"type":"boolean"}),
    q("page","The web explorer's page number (1 or more). The API pages with limit and offset; it checks page as the explorer and its CSV export do, so a bad value gets the same 400 from all three.",{"type":"integer","minimum":1}),
    q("col","The explorer's columns (provider, instance, gpu, gpus, vram, vcpu, ram, interconnect, network, rdma, region, billing, price, per_gpu, upfront, source, as_of; cols= takes a comma-separated list). The API answers every field; it checks the names as the explorer and its CSV export do, so an unknown column gets the same 400 from all three.",s),
    q("cols","The explorer's columns as one comma-separated list (see col).",s),cur],
   "responses":{"200":resp("Offers","Matching offers, cheapest first by default; total counts matches before offset and limit; next, when present, fetches the rest."),"400":errs["400"],"500":errs["500"]}}},
  "/api/v1/offers/{id}":{"get":{"operationId":"getOffer","summary":"One offer by ID (provider/instance_type/region/billing)","parameters":[{"name":"id","in":"path","required":True,"description":"Offer ID; its slashes are part of the path.","schema":s},cur],
   "responses":{"200":resp("Offers","The offer, as a one-row offers document."),"400":errs["400"],"404":errs["404"],"500":errs["500"]}}},
  "/api/v1/gpus":{"get":{"operationId":"listGPUs","summary":"GPU models and their specifications","parameters":[listq("gpu","Only these models or families.")],"responses":{"200":resp("GPUs","GPU models."),"400":errs["400"]}}},
  "/api/v1/instances":{"get":{"operationId":"listInstances","summary":"GPU instance types","parameters":[listq("provider","Providers."),listq("gpu","GPU models or families.")],"responses":{"200":resp("Instances","Instance types."),"400":errs["400"]}}},
  "/api/v1/catalog/stats":{"get":{"operationId":"catalogStats","summary":"What the catalog holds, per provider","responses":{"200":resp("CatalogStats","Counts.")}}},
  "/api/v1/catalog/sources":{"get":{"operationId":"catalogSources","summary":"Every source the figures come from, with record counts and dates","responses":{"200":resp("Sources","Sources.")}}},
  "/api/v1/tco":{"get":{"operationId":"tco","summary":"Total cost of ownership of offers (and optionally buying servers) over a horizon, with break-even points","parameters":[
    listq("offer","Offer IDs to compare, each as its own plan (at most 12)."),q("onprem","Add a plan that buys servers with this GPU (catalog defaults)."),q("servers","Servers for onprem (default 1).",{"type":"integer","minimum":1}),
    q("months","Horizon in months (default 36).",{"type":"integer","minimum":1,"maximum":120}),q("instances","Instances per offer (default 1).",{"type":"integer","minimum":1}),
    q("hours_per_day","Hours a day the instances run (default 24).",num),q("utilization","Fraction of scheduled hours actually used, 0-1 (default 1).",num),q("storage_gb","Block storage held, GB.",num),q("egress_gb","Internet egress per month, GB.",num),cur],
   "responses":{"200":resp("TCO","Plans ranked by total cost."),"400":errs["400"],"500":errs["500"]}}},
  "/api/v1/recommend":{"post":{"operationId":"recommend","summary":"Ranked plans for a job description, each with reasons and risks","parameters":[q("lang","Language of reasons: en or zh (default from Accept-Language).",{"type":"string","enum":["en","zh"]})],
   "requestBody":{"required":True,"description":"A job description in YAML or JSON, as for gpuscout recommend -f (see examples/*.yaml).","content":{"application/yaml":{"schema":{"type":"string"}},"application/json":{"schema":{"type":"object"}},"text/plain":{"schema":{"type":"string"}}}},
   "responses":{"200":resp("Recommendation","Ranked plans, the Pareto front and the rejected candidates."),"400":resp("Error","The job description is invalid; error.field and error.message say where."),"413":resp("Error","Body over 1 MiB."),"422":resp("Error","No offer satisfies the constraints; the message names the one that eliminated the last candidates.")}}},
 },
 "components":{"schemas":{"Source":src,"FX":fx,"GPURef":gpuref,"Offer":offer,"Offers":offers,"GPU":gpu,"GPUs":gpus,"Instance":inst,"Instances":insts,"CatalogStats":stats,"Sources":sources,"MonthAmount":month,"CostComponent":comp,"BreakEven":be,"Cost":cost,"TCO":tco,"Plan":plan,"Recommendation":rec,"Error":err,"Warning":warning}}}
# Fragments gen/extra_*.json add paths and component schemas.
import glob, os
for frag in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "extra_*.json"))):
    with open(frag) as f:
        extra = json.load(f)
    for k, v in extra.get("paths", {}).items():
        assert k not in spec["paths"], frag + ": duplicate path " + k
        spec["paths"][k] = v
    for k, v in extra.get("schemas", {}).items():
        assert k not in spec["components"]["schemas"], frag + ": duplicate schema " + k
        spec["components"]["schemas"][k] = v
# extra_patches.json: properties added to existing schemas, deep-merged last.
def _deep_merge(dst, src):
    for k, v in src.items():
        if isinstance(v, dict) and isinstance(dst.get(k), dict):
            _deep_merge(dst[k], v)
        else:
            dst[k] = v
_deep_merge(spec, json.load(open(__import__("os").path.join(__import__("os").path.dirname(__import__("os").path.abspath(__file__)), "extra_patches.json"))))
open(__import__("os").path.join(__import__("os").path.dirname(__import__("os").path.abspath(__file__)),"..","openapi.json"),"w").write(json.dumps(spec,indent=2,ensure_ascii=False)+"\n")
