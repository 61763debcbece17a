# Source: after PyTorch's examples/reinforcement_learning/reinforce.py (REINFORCE with a Categorical policy), on a cart-pole written here in plain Python (gym's equations) so it needs no gym.
import math
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical


class CartPole:
    """The classic cart-pole: push left or right, +1 reward per step while the pole stays up."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def reset(self):
        self.state = [self.rng.uniform(-0.05, 0.05) for _ in range(4)]
        self.steps = 0
        return np.array(self.state, dtype=np.float32)

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        cos, sin = math.cos(theta), math.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sin) / 1.1
        theta_acc = (9.8 * sin - cos * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos ** 2 / 1.1))
        x_acc = temp - 0.05 * theta_acc * cos / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * x_acc
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * theta_acc
        self.state = [x, x_dot, theta, theta_dot]
        self.steps += 1
        done = abs(x) > 2.4 or abs(theta) > 12 * 2 * math.pi / 360 or self.steps >= 100
        return np.array(self.state, dtype=np.float32), 1.0, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 64)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(64, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.dropout(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=1)


def select_action(policy, state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode(policy, optimizer, gamma=0.99):
    R, returns = 0, []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + np.finfo(np.float32).eps.item())
    policy_loss = [-log_prob * R for log_prob, R in zip(policy.saved_log_probs, returns)]
    optimizer.zero_grad()
    loss = torch.cat(policy_loss).sum()
    loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return loss


def main():
    torch.manual_seed(543)
    env = CartPole(543)
    policy = Policy()
    optimizer = optim.Adam(policy.parameters(), lr=1e-2)
    m = Categorical(torch.tensor([[0.25, 0.75]]))
    print(m, m.probs, m.batch_shape, m.sample(), m.entropy())
    running_reward = 10
    for episode in range(1, 13):
        state, ep_reward = env.reset(), 0
        for t in range(1, 101):
            action = select_action(policy, state)
            state, reward, done = env.step(action)
            policy.rewards.append(reward)
            ep_reward += reward
            if done:
                break
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        loss = finish_episode(policy, optimizer)
        if episode % 3 == 0:
            print(f"Episode {episode}\tLast reward: {ep_reward:.2f}\tAverage reward: {running_reward:.2f}\t"
                  f"loss {loss.item():.3f}")
    policy.eval()
    with torch.no_grad():
        probs = policy(torch.zeros(1, 4))
    print(probs, Categorical(probs).entropy(), policy.affine2.bias.grad is not None)


if __name__ == "__main__":
    main()
