"""The peer of Hub Console's webhook receiver in `npm run bench -- webhooks`.

What a huggingface_hub `WebhooksServer` route does for each delivery, without the Gradio UI around
it: FastAPI parses the JSON body into a pydantic model of the v3 payload (a body that does not fit
gets 422 before the secret is looked at, as there), the X-Webhook-Secret header is checked (401 when
missing, 403 when wrong), then the handler runs and its return value is the JSON answer. One uvicorn
worker, no access log. Written for this bench; it runs on Debian's python3-fastapi, python3-uvicorn
and python3-pydantic.

`--loop` and `--http` pick uvicorn's event loop and HTTP parser: `auto` (uvicorn's default, what a
WebhooksServer gets) takes uvloop and httptools when they are installed (`uvicorn[standard]`, or
Debian's python3-uvloop and python3-httptools), else asyncio and the pure-Python h11.

The model has the fields of huggingface_hub's `WebhookPayload` plus what the hub's docs add
(`headSha`, `updatedConfig`), the same checks as src/webhooks/payload-schema.ts's v3 payload, which
the bench receiver's handler validates too. The handler counts calls per `repo.headSha` (unique per
request in the bench). Commands on stdin, one a line: `reset` clears the counts, `stats` prints them
as one JSON line.
"""
import argparse
import hmac
import os
import socket
import sys
import threading
from collections import Counter
from typing import List, Literal, Optional

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, conint, constr

NonEmpty = constr(min_length=1)


class ObjectId(BaseModel):
    id: NonEmpty


class Url(BaseModel):
    web: NonEmpty
    api: Optional[NonEmpty] = None


class Event(BaseModel):
    action: Literal["create", "delete", "move", "update"]
    scope: NonEmpty


class Repo(BaseModel):
    type: Literal["model", "dataset", "space", "bucket", "kernel"]
    name: NonEmpty
    id: NonEmpty
    private: bool
    headSha: Optional[str] = None
    subdomain: Optional[str] = None
    tags: Optional[List[str]] = None
    url: Url
    owner: ObjectId


class DiscussionChanges(BaseModel):
    base: str
    mergeCommitId: Optional[str] = None


class Discussion(BaseModel):
    id: NonEmpty
    num: conint(ge=0)
    author: ObjectId
    url: Url
    title: str
    isPullRequest: bool
    status: Literal["draft", "open", "closed", "merged"]
    changes: Optional[DiscussionChanges] = None
    pinned: Optional[bool] = None


class Comment(BaseModel):
    id: NonEmpty
    author: ObjectId
    hidden: bool
    content: Optional[str] = None
    url: Url


class Webhook(BaseModel):
    id: NonEmpty
    version: Literal[3]


class MovedTo(BaseModel):
    name: NonEmpty
    owner: ObjectId


class UpdatedRef(BaseModel):
    ref: NonEmpty
    oldSha: Optional[str] = None
    newSha: Optional[str] = None


class UpdatedConfig(BaseModel):
    private: Optional[bool] = None
    xetEnabled: Optional[bool] = None


class WebhookPayload(BaseModel):
    event: Event
    repo: Repo
    discussion: Optional[Discussion] = None
    comment: Optional[Comment] = None
    webhook: Webhook
    movedTo: Optional[MovedTo] = None
    updatedRefs: Optional[List[UpdatedRef]] = None
    updatedConfig: Optional[UpdatedConfig] = None


SECRET = os.environ["WEBHOOK_SECRET"].encode()
calls: Counter = Counter()
app = FastAPI()


@app.post("/webhooks/bench")
async def bench(request: Request, payload: WebhookPayload):
    given = request.headers.get("x-webhook-secret")
    if given is None:
        return JSONResponse({"error": "x-webhook-secret header not set."}, status_code=401)
    if not hmac.compare_digest(given.encode(), SECRET):
        return JSONResponse({"error": "Invalid webhook secret."}, status_code=403)
    calls[payload.repo.headSha] += 1
    return {"ok": True}


def commands() -> None:
    for line in sys.stdin:
        command = line.strip()
        if command == "reset":
            calls.clear()
            print("ok", flush=True)
        elif command == "stats":
            counts = list(calls.values())
            total = sum(counts)
            print(f'{{"calls": {total}, "distinct": {len(counts)}, "duplicated": {total - len(counts)}}}', flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loop", choices=["auto", "asyncio", "uvloop"], default="auto")
    parser.add_argument("--http", choices=["auto", "h11", "httptools"], default="auto")
    args = parser.parse_args()
    # IPPROTO_TCP named, as uvicorn's own bind (getaddrinfo) does: asyncio only turns Nagle off
    # (TCP_NODELAY) on sockets whose proto says TCP, and with Nagle on every answer stalls ~40 ms.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    threading.Thread(target=commands, daemon=True).start()
    print(f"listening http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False, workers=1, loop=args.loop, http=args.http)
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
