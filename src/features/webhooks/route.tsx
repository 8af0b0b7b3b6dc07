import { Route, Routes } from 'react-router-dom';
import { DeliveryDetail } from './delivery-detail.tsx';
import { WebhookCreate } from './webhook-create.tsx';
import { WebhookDetail } from './webhook-detail.tsx';
import { WebhookList } from './webhook-list.tsx';

export function Component() {
  return (
    <Routes>
      <Route index element={<WebhookList />} />
      <Route path="new" element={<WebhookCreate />} />
      <Route path=":id" element={<WebhookDetail />} />
      <Route path=":id/deliveries/:logId" element={<DeliveryDetail />} />
    </Routes>
  );
}
