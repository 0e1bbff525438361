-- wrk script for W10: POST /api/items with a body of its own per request (distinct names),
-- counting each status; the name of every item acknowledged with 201 goes to the file
-- $W10_ACKNOWLEDGED.THREAD, so the run can check that each one is in the database afterwards.
local counter = 0
local threads = {}

function setup(thread)
    thread:set("id", #threads + 1)
    table.insert(threads, thread)
end

function init(args)
    created = 0
    other = 0
    acknowledged = io.open(os.getenv("W10_ACKNOWLEDGED") .. "." .. id, "w")
end

function request()
    counter = counter + 1
    local body = string.format('{"name":"Bench %d-%d","status":{"case":"inStock","quantity":1}}', id, counter)
    return wrk.format("POST", "/api/items", {["Content-Type"] = "application/json"}, body)
end

function response(status, headers, body)
    if status == 201 then
        created = created + 1
        acknowledged:write(body:match('"name":"([^"]*)"'), "\n")
        acknowledged:flush()
    else
        other = other + 1
    end
end

function done(summary, latency, requests)
    local total_created, total_other = 0, 0
    for _, thread in ipairs(threads) do
        total_created = total_created + thread:get("created")
        total_other = total_other + thread:get("other")
    end
    io.write(string.format("created=%d other=%d\n", total_created, total_other))
end
