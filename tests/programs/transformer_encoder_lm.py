# Source: after the PyTorch tutorial "Language Modeling with nn.Transformer" (Embedding scaled by sqrt(d_model), a sine/cosine PositionalEncoding buffer with dropout, nn.TransformerEncoder of TransformerEncoderLayer with a square subsequent mask, a Linear decoder, SGD with gradient clipping and StepLR), on a tiny synthetic vocabulary; then nn.MultiheadAttention's weights on its own.
import math

import torch
import torch.nn as nn
from torch.nn import TransformerEncoder, TransformerEncoderLayer


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        # x: (seq_len, batch, d_model)
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.1):
        super().__init__()
        self.model_type = "Transformer"
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        encoder_layers = TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)


def generate_square_subsequent_mask(sz):
    """-inf above the diagonal: position i may only attend to positions <= i."""
    return torch.triu(torch.ones(sz, sz) * float("-inf"), diagonal=1)


def batchify(data, bsz):
    seq_len = data.size(0) // bsz
    return data[:seq_len * bsz].view(bsz, seq_len).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


# a "corpus": a repeating pattern of 6 tokens with some noise tokens mixed in
ntokens = 8
g = torch.Generator().manual_seed(0)
pattern = torch.tensor([0, 1, 2, 3, 4, 5]).repeat(20)
noise = torch.randint(6, 8, (120,), generator=g)
stream = torch.where(torch.rand(120, generator=g) < 0.1, noise, pattern)
train_data = batchify(stream, 4)
print("train_data:", train_data.shape)

torch.manual_seed(42)
model = TransformerModel(ntokens, d_model=8, nhead=2, d_hid=16, nlayers=2, dropout=0.1)
print(model.transformer_encoder.layers[0])
print("parameters:", sum(p.numel() for p in model.parameters()))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1, gamma=0.9)
bptt = 6
src_mask = generate_square_subsequent_mask(bptt)
for epoch in range(1, 4):
    model.train()
    total_loss, batches = 0.0, 0
    for i in range(0, train_data.size(0) - 1, bptt):
        data, targets = get_batch(train_data, i, bptt)
        mask = src_mask if data.size(0) == bptt else generate_square_subsequent_mask(data.size(0))
        output = model(data, mask)
        loss = criterion(output.view(-1, ntokens), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total_loss += loss.item()
        batches += 1
    scheduler.step()
    cur_loss = total_loss / batches
    print(f"| epoch {epoch} | lr {scheduler.get_last_lr()[0]:.3f} | loss {cur_loss:5.2f} | ppl {math.exp(cur_loss):8.2f}")

model.eval()
with torch.no_grad():
    data, targets = get_batch(train_data, 0, bptt)
    preds = model(data, src_mask).argmax(dim=-1)
print("predicted:", preds[:, 0].tolist())
print("targets:  ", targets.view(-1, 4)[:, 0].tolist())

# attention weights of a single multi-head attention layer
torch.manual_seed(0)
mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True)
tokens = torch.randn(1, 3, 4)
attn_output, attn_weights = mha(tokens, tokens, tokens)
print(attn_output.shape, attn_weights.shape)
print(attn_weights.round(decimals=3))
_, per_head = mha(tokens, tokens, tokens, average_attn_weights=False,
                  key_padding_mask=torch.tensor([[False, False, True]]))
print(per_head.round(decimals=3))
