-- wrk script for the adjustment benchmark (issue 29): POST /api/items/$ITEM/adjustments
-- {"by":1} (receiving, so none is refused), counting 200s and anything else.
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    ok = 0
    other = 0
end

function request()
    return wrk.format("POST", "/api/items/" .. os.getenv("ITEM") .. "/adjustments", {["Content-Type"] = "application/json"}, '{"by":1}')
end

function response(status, headers, body)
    if status == 200 then ok = ok + 1 else other = other + 1 end
end

function done(summary, latency, requests)
    local total_ok, total_other = 0, 0
    for _, thread in ipairs(threads) do
        total_ok = total_ok + thread:get("ok")
        total_other = total_other + thread:get("other")
    end
    io.write(string.format("adjusted=%d other=%d\n", total_ok, total_other))
end
